#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// libcurl's entry points, found by name in the loaded library (its ABI is stable across 7.x and 8.x).
static struct {
    streakcal_curl_code (*global_init)(long flags);
    streakcal_curl *(*easy_init)(void);
    void (*easy_cleanup)(streakcal_curl *);
    streakcal_curl_code (*easy_perform)(streakcal_curl *);
    const char *(*easy_strerror)(streakcal_curl_code);
    streakcal_curl_code (*easy_setopt)(streakcal_curl *, streakcal_curl_option, ...);
    streakcal_curl_slist *(*slist_append)(streakcal_curl_slist *, const char *);
    void (*slist_free_all)(streakcal_curl_slist *);
} curl;

// CURL_GLOBAL_DEFAULT: CURL_GLOBAL_SSL (1) | CURL_GLOBAL_WIN32 (2).
static const long global_default = 3;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = NULL;

static int find(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    return *slot != NULL;
}

static void load(void) {
    // OpenSSL's flavour first, as curl(1) on Debian and Ubuntu uses it; then GnuTLS's.
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
    void *library = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        failure = "reading a URL needs libcurl 4 (Debian and Ubuntu: apt-get install libcurl4)";
        return;
    }
    int found = find(library, (void **)&curl.global_init, "curl_global_init")
        && find(library, (void **)&curl.easy_init, "curl_easy_init")
        && find(library, (void **)&curl.easy_cleanup, "curl_easy_cleanup")
        && find(library, (void **)&curl.easy_perform, "curl_easy_perform")
        && find(library, (void **)&curl.easy_strerror, "curl_easy_strerror")
        && find(library, (void **)&curl.easy_setopt, "curl_easy_setopt")
        && find(library, (void **)&curl.slist_append, "curl_slist_append")
        && find(library, (void **)&curl.slist_free_all, "curl_slist_free_all");
    if (!found) {
        failure = "the libcurl found lacks a function StreakCal calls";
        return;
    }
    if (curl.global_init(global_default) != STREAKCAL_CURLE_OK) {
        failure = "libcurl could not be initialised";
    }
}

const char *streakcal_curl_load(void) {
    pthread_once(&once, load);
    return failure;
}

streakcal_curl *streakcal_curl_easy_init(void) { return curl.easy_init(); }
void streakcal_curl_easy_cleanup(streakcal_curl *handle) { curl.easy_cleanup(handle); }
streakcal_curl_code streakcal_curl_easy_perform(streakcal_curl *handle) { return curl.easy_perform(handle); }
const char *streakcal_curl_easy_strerror(streakcal_curl_code code) { return curl.easy_strerror(code); }

streakcal_curl_code streakcal_curl_setopt_long(streakcal_curl *handle, streakcal_curl_option option, long value) {
    return curl.easy_setopt(handle, option, value);
}

streakcal_curl_code streakcal_curl_setopt_offset(streakcal_curl *handle, streakcal_curl_option option, streakcal_curl_offset value) {
    return curl.easy_setopt(handle, option, value);
}

streakcal_curl_code streakcal_curl_setopt_pointer(streakcal_curl *handle, streakcal_curl_option option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

streakcal_curl_code streakcal_curl_setopt_write(streakcal_curl *handle, streakcal_curl_option option, streakcal_curl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

streakcal_curl_code streakcal_curl_setopt_progress(streakcal_curl *handle, streakcal_curl_progress_callback callback) {
    return curl.easy_setopt(handle, STREAKCAL_CURLOPT_XFERINFOFUNCTION, callback);
}

streakcal_curl_slist *streakcal_curl_slist_append(streakcal_curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void streakcal_curl_slist_free_all(streakcal_curl_slist *list) { curl.slist_free_all(list); }

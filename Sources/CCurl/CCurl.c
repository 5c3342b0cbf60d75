#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// libcurl's entry points, found by name in the loaded library (its ABI is stable across 7.x and 8.x).
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

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
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        failure = "libcurl could not be initialised";
    }
}

const char *streakcal_curl_load(void) {
    pthread_once(&once, load);
    return failure;
}

CURL *streakcal_curl_easy_init(void) { return curl.easy_init(); }
void streakcal_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode streakcal_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *streakcal_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode streakcal_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode streakcal_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode streakcal_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode streakcal_curl_setopt_write(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode streakcal_curl_setopt_progress(CURL *handle, curl_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

struct curl_slist *streakcal_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void streakcal_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

// libcurl, loaded when a URL is first read rather than linked: the release binary
// (scripts/build-release) stays one file that needs nothing installed to read files, and reading a
// URL on a machine without libcurl says so instead of the binary failing to start.
//
// libcurl's setopt is a C variadic function, which Swift cannot call: a typed wrapper
// each for the argument kinds StreakCal passes.
#ifndef STREAKCAL_CCURL_H
#define STREAKCAL_CCURL_H

#include <curl/curl.h>

/// The authentication schemes StreakCal offers a server (CURLAUTH_ is a macro Swift cannot import).
static const long streakcal_curl_basic_or_digest = (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST);

/// Loads libcurl (libcurl.so.4, or Debian's GnuTLS flavour) and initialises it, once a process.
/// Returns NULL when it is ready, else why not (static text).
const char *streakcal_curl_load(void);

CURL *streakcal_curl_easy_init(void);
void streakcal_curl_easy_cleanup(CURL *handle);
CURLcode streakcal_curl_easy_perform(CURL *handle);
const char *streakcal_curl_easy_strerror(CURLcode code);

CURLcode streakcal_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode streakcal_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode streakcal_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode streakcal_curl_setopt_write(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode streakcal_curl_setopt_progress(CURL *handle, curl_xferinfo_callback callback);

struct curl_slist *streakcal_curl_slist_append(struct curl_slist *list, const char *text);
void streakcal_curl_slist_free_all(struct curl_slist *list);

#endif

// libcurl, loaded when a URL is first read rather than linked: the release binary
// (scripts/build-release) stays one file that needs nothing installed to read files, and reading a
// URL on a machine without libcurl says so instead of the binary failing to start.
//
// This header declares the part of libcurl's ABI StreakCal calls, under names of its own, and
// includes none of libcurl's headers: a package that depends on StreakCal compiles without them
// (issue 50.8). The numbers are libcurl's, stable since libcurl 7 (SONAME 4): an option's is its
// type's base (long 0, object pointer 10000, function pointer 20000, curl_off_t 30000) plus its
// number. scripts/check-curl-abi compiles each name against libcurl's own header and fails on any
// difference (a CI step).
//
// libcurl's setopt is a C variadic function, which Swift cannot call: a typed wrapper each for the
// argument kinds StreakCal passes.
#ifndef STREAKCAL_CCURL_H
#define STREAKCAL_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// A libcurl easy handle (libcurl's `CURL`).
typedef void streakcal_curl;

/// libcurl's result codes that StreakCal tells apart (`CURLcode`).
typedef enum {
    STREAKCAL_CURLE_OK = 0,
    STREAKCAL_CURLE_PARTIAL_FILE = 18,
    STREAKCAL_CURLE_WRITE_ERROR = 23,
    STREAKCAL_CURLE_OPERATION_TIMEDOUT = 28,
    STREAKCAL_CURLE_RECV_ERROR = 56,
    STREAKCAL_CURLE_PEER_FAILED_VERIFICATION = 60,
    STREAKCAL_CURLE_BAD_CONTENT_ENCODING = 61,
    STREAKCAL_CURLE_FILESIZE_EXCEEDED = 63,
    STREAKCAL_CURLE_SSL_CACERT_BADFILE = 77,
} streakcal_curl_code;

/// libcurl's options that StreakCal sets (`CURLoption`).
typedef enum {
    STREAKCAL_CURLOPT_NOPROGRESS = 43,
    STREAKCAL_CURLOPT_FOLLOWLOCATION = 52,
    STREAKCAL_CURLOPT_SSL_VERIFYPEER = 64,
    STREAKCAL_CURLOPT_SSL_VERIFYHOST = 81,
    STREAKCAL_CURLOPT_NOSIGNAL = 99,
    STREAKCAL_CURLOPT_HTTPAUTH = 107,
    STREAKCAL_CURLOPT_TIMEOUT_MS = 155,
    STREAKCAL_CURLOPT_CONNECTTIMEOUT_MS = 156,
    STREAKCAL_CURLOPT_WRITEDATA = 10001,
    STREAKCAL_CURLOPT_URL = 10002,
    STREAKCAL_CURLOPT_ERRORBUFFER = 10010,
    STREAKCAL_CURLOPT_POSTFIELDS = 10015,
    STREAKCAL_CURLOPT_USERAGENT = 10018,
    STREAKCAL_CURLOPT_HTTPHEADER = 10023,
    STREAKCAL_CURLOPT_HEADERDATA = 10029,
    STREAKCAL_CURLOPT_CUSTOMREQUEST = 10036,
    STREAKCAL_CURLOPT_XFERINFODATA = 10057,
    STREAKCAL_CURLOPT_CAINFO = 10065,
    STREAKCAL_CURLOPT_ACCEPT_ENCODING = 10102,
    STREAKCAL_CURLOPT_USERNAME = 10173,
    STREAKCAL_CURLOPT_PASSWORD = 10174,
    STREAKCAL_CURLOPT_PROTOCOLS_STR = 10318,
    STREAKCAL_CURLOPT_WRITEFUNCTION = 20011,
    STREAKCAL_CURLOPT_HEADERFUNCTION = 20079,
    STREAKCAL_CURLOPT_XFERINFOFUNCTION = 20219,
    STREAKCAL_CURLOPT_MAXFILESIZE_LARGE = 30117,
    STREAKCAL_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
} streakcal_curl_option;

/// libcurl's `curl_off_t` on the 64-bit systems StreakCal runs on.
typedef int64_t streakcal_curl_offset;

/// libcurl's list of strings (`struct curl_slist`), for request headers.
typedef struct streakcal_curl_slist {
    char *data;
    struct streakcal_curl_slist *next;
} streakcal_curl_slist;

/// `curl_write_callback`: called with bytes of the answer's head or body.
typedef size_t (*streakcal_curl_write_callback)(char *buffer, size_t size, size_t count, void *context);

/// `curl_xferinfo_callback`: called with the transfer's progress; non-zero stops it.
typedef int (*streakcal_curl_progress_callback)(
    void *context, streakcal_curl_offset download_total, streakcal_curl_offset downloaded,
    streakcal_curl_offset upload_total, streakcal_curl_offset uploaded);

/// The size of the buffer libcurl writes a failure's detail into (`CURL_ERROR_SIZE`).
#define STREAKCAL_CURL_ERROR_SIZE 256

/// The authentication schemes StreakCal offers a server: CURLAUTH_BASIC | CURLAUTH_DIGEST.
static const long streakcal_curl_basic_or_digest = 3;

/// Loads libcurl (libcurl.so.4, or Debian's GnuTLS flavour) and initialises it, once a process.
/// Returns NULL when it is ready, else why not (static text).
const char *streakcal_curl_load(void);

streakcal_curl *streakcal_curl_easy_init(void);
void streakcal_curl_easy_cleanup(streakcal_curl *handle);
streakcal_curl_code streakcal_curl_easy_perform(streakcal_curl *handle);
const char *streakcal_curl_easy_strerror(streakcal_curl_code code);

streakcal_curl_code streakcal_curl_setopt_long(streakcal_curl *handle, streakcal_curl_option option, long value);
streakcal_curl_code streakcal_curl_setopt_offset(streakcal_curl *handle, streakcal_curl_option option, streakcal_curl_offset value);
streakcal_curl_code streakcal_curl_setopt_pointer(streakcal_curl *handle, streakcal_curl_option option, const void *value);
streakcal_curl_code streakcal_curl_setopt_write(
    streakcal_curl *handle, streakcal_curl_option option, streakcal_curl_write_callback callback);
streakcal_curl_code streakcal_curl_setopt_progress(streakcal_curl *handle, streakcal_curl_progress_callback callback);

streakcal_curl_slist *streakcal_curl_slist_append(streakcal_curl_slist *list, const char *text);
void streakcal_curl_slist_free_all(streakcal_curl_slist *list);

#endif

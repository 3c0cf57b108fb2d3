#pragma once
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

// What Swift cannot import: curl_easy_setopt and curl_easy_getinfo are variadic.

/// A reply's body, bounded: a longer one is cut off and `overflowed` set, so an authority that
/// answers without end cannot take the daemon's memory.
typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t limit;
    int overflowed;
} signpad_http_body;

static inline size_t signpad_http_collect(char *data, size_t size, size_t n, void *context) {
    signpad_http_body *body = (signpad_http_body *)context;
    size_t more = size * n;
    if (body->count + more > body->limit) { body->overflowed = 1; return 0; }
    unsigned char *grown = realloc(body->bytes, body->count + more);
    if (grown == NULL) return 0;
    body->bytes = grown;
    memcpy(body->bytes + body->count, data, more);
    body->count += more;
    return more;
}

/// One POST of `request` to `url` with `content_type`, within `timeout_seconds` in all (and
/// `connect_seconds` to connect), following no redirect. The reply's body goes to `body` (free
/// `body->bytes`), its status to `status` and its Content-Type (up to 127 bytes) to `reply_type`.
/// Returns curl's code; `error` (CURL_ERROR_SIZE bytes) says why when it is not CURLE_OK.
static inline CURLcode signpad_http_post(const char *url, const unsigned char *request, size_t request_count, const char *content_type,
                                         long timeout_seconds, long connect_seconds, signpad_http_body *body, long *status,
                                         char *reply_type, char *error) {
    CURL *curl = curl_easy_init();
    if (curl == NULL) { strcpy(error, "libcurl could not start a transfer"); return CURLE_FAILED_INIT; }
    char header[160];
    snprintf(header, sizeof header, "Content-Type: %s", content_type);
    struct curl_slist *headers = curl_slist_append(NULL, header);
    error[0] = 0;
    reply_type[0] = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)request_count);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, connect_seconds);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, signpad_http_collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "signpad");
    CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
    char *type = NULL;
    if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type != NULL) {
        strncpy(reply_type, type, 127);
        reply_type[127] = 0;
    }
    if (code != CURLE_OK && error[0] == 0) strncpy(error, curl_easy_strerror(code), CURL_ERROR_SIZE - 1);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return code;
}

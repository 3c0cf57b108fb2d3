#pragma once
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// What Swift cannot import: curl_easy_setopt and curl_easy_getinfo are variadic.
//
// libcurl is loaded when a time-stamp authority is first asked, not linked: with its TLS,
// Kerberos, LDAP and SSH libraries it is 7 MB of a kiosk's memory that has no authority.

/// The libcurl functions signpad calls, from `signpad_curl_load`.
typedef struct {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} signpad_curl;

/// Loads `name` (libcurl.so.4; kept loaded) and its functions into `api`. Returns 0, or -1 with
/// why in `error` (`error_size` bytes).
static inline int signpad_curl_load(const char *name, signpad_curl *api, char *error, size_t error_size) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { snprintf(error, error_size, "%s", dlerror()); return -1; }
    struct { void **slot; const char *name; } symbols[] = {
        { (void **)&api->easy_init, "curl_easy_init" }, { (void **)&api->easy_setopt, "curl_easy_setopt" },
        { (void **)&api->easy_perform, "curl_easy_perform" }, { (void **)&api->easy_getinfo, "curl_easy_getinfo" },
        { (void **)&api->easy_strerror, "curl_easy_strerror" }, { (void **)&api->easy_cleanup, "curl_easy_cleanup" },
        { (void **)&api->slist_append, "curl_slist_append" }, { (void **)&api->slist_free_all, "curl_slist_free_all" },
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (*symbols[i].slot == NULL) { snprintf(error, error_size, "%s has no %s", name, symbols[i].name); return -1; }
    }
    return 0;
}

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
static inline CURLcode signpad_http_post(const signpad_curl *api, const char *url, const unsigned char *request, size_t request_count, const char *content_type,
                                         long timeout_seconds, long connect_seconds, signpad_http_body *body, long *status,
                                         char *reply_type, char *error) {
    CURL *curl = api->easy_init();
    if (curl == NULL) { strcpy(error, "libcurl could not start a transfer"); return CURLE_FAILED_INIT; }
    char header[160];
    snprintf(header, sizeof header, "Content-Type: %s", content_type);
    struct curl_slist *headers = api->slist_append(NULL, header);
    error[0] = 0;
    reply_type[0] = 0;
    api->easy_setopt(curl, CURLOPT_URL, url);
    api->easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    api->easy_setopt(curl, CURLOPT_POST, 1L);
    api->easy_setopt(curl, CURLOPT_POSTFIELDS, request);
    api->easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)request_count);
    api->easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    api->easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
    api->easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, connect_seconds);
    api->easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api->easy_setopt(curl, CURLOPT_WRITEFUNCTION, signpad_http_collect);
    api->easy_setopt(curl, CURLOPT_WRITEDATA, body);
    api->easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    api->easy_setopt(curl, CURLOPT_USERAGENT, "signpad");
    CURLcode code = api->easy_perform(curl);
    api->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
    char *type = NULL;
    if (api->easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type != NULL) {
        strncpy(reply_type, type, 127);
        reply_type[127] = 0;
    }
    if (code != CURLE_OK && error[0] == 0) strncpy(error, api->easy_strerror(code), CURL_ERROR_SIZE - 1);
    api->slist_free_all(headers);
    api->easy_cleanup(curl);
    return code;
}

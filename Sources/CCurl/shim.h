/* The only C the Swift side sees of libcurl, Debian's libcurl4 (OpenSSL flavour). curl_easy_setopt,
 * curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call: each kind of argument
 * gets a typed adapter here. */
#ifndef FORMWRIGHT_CCURL_SHIM_H
#define FORMWRIGHT_CCURL_SHIM_H

#include <curl/curl.h>

/* A read or write callback: (buffer, size, count, user data) -> bytes taken or given. */
typedef size_t (*CCurl_DataCallback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode CCurl_setLong(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setString(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setPointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setList(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setSize(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setCallback(CURL *handle, CURLoption option, CCurl_DataCallback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_getLong(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode CCurl_getPointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode CCurl_multiSetLong(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/* The easy handle and result of a finished transfer's message (CURLMSG_DONE): the result sits in a
 * union Swift reads awkwardly. */
static inline CURL *CCurl_messageHandle(const CURLMsg *message) { return message->easy_handle; }
static inline int CCurl_messageIsDone(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
static inline CURLcode CCurl_messageResult(const CURLMsg *message) { return message->data.result; }

#endif

#pragma once
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/cms.h>
#include <openssl/ts.h>
#include <openssl/rand.h>
#include <openssl/provider.h>
#include <openssl/store.h>

// What Swift cannot import: macros over BIO_ctrl and the typed-stack macros.

/// The bytes a memory BIO holds; returns their count.
static inline long signpad_bio_contents(BIO *bio, const unsigned char **data) {
    char *p = NULL;
    long n = BIO_get_mem_data(bio, &p);
    *data = (const unsigned char *)p;
    return n;
}

/// A stack holding one certificate (one more reference to it), for CMS_encrypt.
static inline STACK_OF(X509) *signpad_certificates_one(X509 *certificate) {
    STACK_OF(X509) *stack = sk_X509_new_null();
    if (stack == NULL) return NULL;
    if (!X509_up_ref(certificate) || sk_X509_push(stack, certificate) <= 0) {
        sk_X509_pop_free(stack, X509_free);
        return NULL;
    }
    return stack;
}

static inline void signpad_certificates_free(STACK_OF(X509) *stack) {
    sk_X509_pop_free(stack, X509_free);
}

/// XN_FLAG_RFC2253, a macro of other macros.
static inline unsigned long signpad_name_format_rfc2253(void) { return XN_FLAG_RFC2253; }

/// A copy of `bytes` in OpenSSL's allocator, which TS_VERIFY_CTX_set_imprint takes and frees.
static inline unsigned char *signpad_openssl_copy(const unsigned char *bytes, size_t count) {
    unsigned char *copy = OPENSSL_malloc(count);
    if (copy != NULL) memcpy(copy, bytes, count);
    return copy;
}

/// The certificates PEM_X509_INFO_read_bio found (a stack of X509_INFO, which Swift cannot index).
static inline int signpad_x509_infos_count(STACK_OF(X509_INFO) *infos) { return sk_X509_INFO_num(infos); }
static inline X509 *signpad_x509_info_certificate(STACK_OF(X509_INFO) *infos, int i) { return sk_X509_INFO_value(infos, i)->x509; }
static inline void signpad_x509_infos_free(STACK_OF(X509_INFO) *infos) { sk_X509_INFO_pop_free(infos, X509_INFO_free); }

/// Adds an extension given as openssl.cnf would (`critical,digitalSignature`) to a certificate
/// (`certificate`, issued by itself) or a request (`request`): X509V3_CTX is a struct of
/// OpenSSL's internals, and a request's extensions go in a typed stack.
static inline int signpad_add_extension(X509 *certificate, X509_REQ *request, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx(&context, certificate, certificate, request, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_nconf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int ok;
    if (certificate != NULL) {
        ok = X509_add_ext(certificate, extension, -1);
    } else {
        STACK_OF(X509_EXTENSION) *extensions = sk_X509_EXTENSION_new_null();
        ok = extensions != NULL && sk_X509_EXTENSION_push(extensions, extension) > 0 && X509_REQ_add_extensions(request, extensions);
        sk_X509_EXTENSION_free(extensions);
    }
    X509_EXTENSION_free(extension);
    return ok;
}

/// EVP_EC_gen is a macro over EVP_PKEY_Q_keygen's variadic arguments.
static inline EVP_PKEY *signpad_ec_generate(const char *curve) { return EVP_EC_gen(curve); }

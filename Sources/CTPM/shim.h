#pragma once
// The TPM 2.0 software stack (tpm2-tss): the enhanced system API, the TCTI loader, and the
// decoder of its response codes; their headers for the types.
//
// The libraries are loaded when `signpad key` first reaches for the TPM, not linked: the daemon
// never calls them (a TPM key signs through OpenSSL's tpm2 provider), and linked they are
// mapped and relocated in every start, 0.4 MiB of a kiosk's memory.
#include <dlfcn.h>
#include <stdio.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

/// The tpm2-tss functions signpad calls, from `signpad_tss2_load`, each typed as its declaration.
typedef struct {
    __typeof__(&Esys_Initialize) _Nonnull Esys_Initialize;
    __typeof__(&Esys_Finalize) _Nonnull Esys_Finalize;
    __typeof__(&Esys_TR_FromTPMPublic) _Nonnull Esys_TR_FromTPMPublic;
    __typeof__(&Esys_TR_Close) _Nonnull Esys_TR_Close;
    __typeof__(&Esys_CreatePrimary) _Nonnull Esys_CreatePrimary;
    __typeof__(&Esys_Create) _Nonnull Esys_Create;
    __typeof__(&Esys_Load) _Nonnull Esys_Load;
    __typeof__(&Esys_EvictControl) _Nonnull Esys_EvictControl;
    __typeof__(&Esys_FlushContext) _Nonnull Esys_FlushContext;
    __typeof__(&Esys_Free) _Nonnull Esys_Free;
    __typeof__(&Tss2_TctiLdr_Initialize) _Nonnull Tss2_TctiLdr_Initialize;
    __typeof__(&Tss2_TctiLdr_Finalize) _Nonnull Tss2_TctiLdr_Finalize;
    __typeof__(&Tss2_RC_Decode) _Nonnull Tss2_RC_Decode;
} signpad_tss2;

/// Loads the three libraries (kept loaded) and their functions into `api`. Returns 0; -1 when a
/// library is missing, -2 when one lacks a function (another version); why in `error`
/// (`error_size` bytes).
static inline int signpad_tss2_load(signpad_tss2 *api, char *error, size_t error_size) {
    const char *names[] = { "libtss2-esys.so.0", "libtss2-tctildr.so.0", "libtss2-rc.so.0" };
    void *libraries[3];
    for (int i = 0; i < 3; i++) {
        libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (libraries[i] == NULL) { snprintf(error, error_size, "%s", dlerror()); return -1; }
    }
    struct { void **slot; int library; const char *name; } symbols[] = {
        { (void **)&api->Esys_Initialize, 0, "Esys_Initialize" }, { (void **)&api->Esys_Finalize, 0, "Esys_Finalize" },
        { (void **)&api->Esys_TR_FromTPMPublic, 0, "Esys_TR_FromTPMPublic" }, { (void **)&api->Esys_TR_Close, 0, "Esys_TR_Close" },
        { (void **)&api->Esys_CreatePrimary, 0, "Esys_CreatePrimary" }, { (void **)&api->Esys_Create, 0, "Esys_Create" },
        { (void **)&api->Esys_Load, 0, "Esys_Load" }, { (void **)&api->Esys_EvictControl, 0, "Esys_EvictControl" },
        { (void **)&api->Esys_FlushContext, 0, "Esys_FlushContext" }, { (void **)&api->Esys_Free, 0, "Esys_Free" },
        { (void **)&api->Tss2_TctiLdr_Initialize, 1, "Tss2_TctiLdr_Initialize" },
        { (void **)&api->Tss2_TctiLdr_Finalize, 1, "Tss2_TctiLdr_Finalize" },
        { (void **)&api->Tss2_RC_Decode, 2, "Tss2_RC_Decode" },
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(libraries[symbols[i].library], symbols[i].name);
        if (*symbols[i].slot == NULL) { snprintf(error, error_size, "%s has no %s", names[symbols[i].library], symbols[i].name); return -2; }
    }
    return 0;
}

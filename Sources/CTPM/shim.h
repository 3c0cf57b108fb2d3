#pragma once
// The TPM 2.0 software stack (tpm2-tss): the enhanced system API, the TCTI loader, and the
// decoder of its response codes. Swift imports these whole; nothing needs a shim.
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_rc.h>

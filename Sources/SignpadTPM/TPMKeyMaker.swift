#if canImport(Glibc)
import Glibc
#endif
import CTPM

/// Why the TPM made no key: what was being done, and the TPM stack's decoded reason.
public struct TPMError: Error, CustomStringConvertible, Equatable, Sendable {
    public var operation: String
    public var reason: String

    public var description: String { "\(operation): \(reason)" }

    init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    init(_ operation: String, code: TSS2_RC, api: signpad_tss2) {
        self.init(operation, reason: api.Tss2_RC_Decode(code).map { String(cString: $0) } ?? "TPM response code \(code)")
    }
}

/// Function pointers only, each copy a value of its own: nothing in it is shared or changes.
extension signpad_tss2: @retroactive @unchecked Sendable {}

/// tpm2-tss, loaded the first time a key is made in the TPM, once for the process: the daemon
/// never maps it.
private let tss2: Result<signpad_tss2, TPMError> = {
    let api = UnsafeMutablePointer<signpad_tss2>.allocate(capacity: 1)
    defer { api.deallocate() }
    var error = [CChar](repeating: 0, count: 256)
    let loaded = signpad_tss2_load(api, &error, error.count)
    guard loaded == 0 else {
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let remedy = loaded == -1 ? "install tpm2-openssl, which brings them and signs with the key (apt-get install tpm2-openssl)"
            : "expected tpm2-tss 3 or later, as Debian 12 has it"
        return .failure(TPMError("loading the TPM libraries", reason: "\(reason); \(remedy)"))
    }
    return .success(api.pointee)
}()

/// Makes the kiosk's signing key inside a TPM 2.0 and keeps it there, at a persistent handle:
/// ECDSA P-256 with SHA-256, for signing only, never leaving the TPM (fixedTPM), under the
/// owner's storage key. It needs no password and is exempt from dictionary-attack lockout
/// (noDA): a kiosk that loses power mid-signature must not lock itself out of its own key.
///
/// The TPM is reached as OpenSSL's tpm2 provider reaches it, through `TPM2OPENSSL_TCTI`
/// (unset: the TCTI loader's own search, /dev/tpmrm0 first).
public enum TPMKeyMaker {
    public static let tctiVariable = "TPM2OPENSSL_TCTI"

    /// Makes the key and persists it at `handle`; refuses a handle that already holds anything.
    public static func create(at handle: UInt32) throws(TPMError) {
        let tpm = try Connection()
        defer { tpm.close() }
        let api = tpm.api
        let hex = "0x" + String(handle, radix: 16)
        if try tpm.holdsObject(at: handle) {
            throw TPMError("making a key at \(hex)", reason: "the TPM already holds an object there: signpad key show prints its public key if it is the kiosk's; choose another handle with --handle, or remove it first (tpm2_evictcontrol -C o -c \(hex))")
        }
        var sensitive = TPM2B_SENSITIVE_CREATE(), outside = TPM2B_DATA(), pcrs = TPML_PCR_SELECTION()
        var primaryTemplate = storageTemplate(), keyTemplate = signingTemplate()
        var primary: ESYS_TR = ESYS_TR(ESYS_TR_NONE)
        try check(api, "making the owner's storage key", api.Esys_CreatePrimary(tpm.context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                                                     &sensitive, &primaryTemplate, &outside, &pcrs, &primary, nil, nil, nil, nil))
        defer { _ = api.Esys_FlushContext(tpm.context, primary) }
        var keyPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>?, keyPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
        try check(api, "making the signing key", api.Esys_Create(tpm.context, primary, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                                        &sensitive, &keyTemplate, &outside, &pcrs, &keyPrivate, &keyPublic, nil, nil, nil))
        defer {
            api.Esys_Free(keyPrivate)
            api.Esys_Free(keyPublic)
        }
        var loaded: ESYS_TR = ESYS_TR(ESYS_TR_NONE)
        try check(api, "loading the signing key", api.Esys_Load(tpm.context, primary, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), keyPrivate, keyPublic, &loaded))
        defer { _ = api.Esys_FlushContext(tpm.context, loaded) }
        var persistent: ESYS_TR = ESYS_TR(ESYS_TR_NONE)
        try check(api, "keeping the signing key at \(hex)", api.Esys_EvictControl(tpm.context, ESYS_TR(ESYS_TR_RH_OWNER), loaded, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                                                         TPMI_DH_PERSISTENT(handle), &persistent))
        _ = api.Esys_TR_Close(tpm.context, &persistent)
    }

    private static func check(_ api: signpad_tss2, _ doing: String, _ code: TSS2_RC) throws(TPMError) {
        guard code == TSS2_RC_SUCCESS else { throw TPMError(doing, code: code, api: api) }
    }

    /// The owner's storage key, as tpm2_createprimary -G ecc256 makes it: restricted, for
    /// decryption, AES-128-CFB for its children.
    private static func storageTemplate() -> TPM2B_PUBLIC {
        var template = TPM2B_PUBLIC()
        template.publicArea.type = TPM2_ALG_ECC
        template.publicArea.nameAlg = TPM2_ALG_SHA256
        template.publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
            | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT | TPMA_OBJECT_NODA
        template.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES
        template.publicArea.parameters.eccDetail.symmetric.keyBits.aes = 128
        template.publicArea.parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB
        template.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL
        template.publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256
        template.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL
        return template
    }

    /// The signing key: P-256, ECDSA with SHA-256 fixed in it, for signing only.
    private static func signingTemplate() -> TPM2B_PUBLIC {
        var template = TPM2B_PUBLIC()
        template.publicArea.type = TPM2_ALG_ECC
        template.publicArea.nameAlg = TPM2_ALG_SHA256
        template.publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
            | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_NODA
        template.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL
        template.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDSA
        template.publicArea.parameters.eccDetail.scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256
        template.publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256
        template.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL
        return template
    }

    /// One session with the TPM: the TCTI and the ESYS context over it.
    private struct Connection {
        let api: signpad_tss2
        let tcti: OpaquePointer
        let context: OpaquePointer

        init() throws(TPMError) {
            let api = try tss2.get()
            let configuration = getenv(TPMKeyMaker.tctiVariable).map { String(cString: $0) }
            var tcti: OpaquePointer?
            let code = api.Tss2_TctiLdr_Initialize(configuration, &tcti)
            guard code == TSS2_RC_SUCCESS, let tcti else {
                let named = configuration.map { "\(TPMKeyMaker.tctiVariable)=\($0)" } ?? "the default search (/dev/tpmrm0, /dev/tpm0; \(TPMKeyMaker.tctiVariable) unset)"
                throw TPMError("reaching the TPM by \(named)", code: code, api: api)
            }
            var context: OpaquePointer?
            let opened = api.Esys_Initialize(&context, tcti, nil)
            guard opened == TSS2_RC_SUCCESS, let context else {
                var tcti: OpaquePointer? = tcti
                api.Tss2_TctiLdr_Finalize(&tcti)
                throw TPMError("opening the TPM", code: opened, api: api)
            }
            self.api = api
            self.tcti = tcti
            self.context = context
        }

        /// Whether anything is persisted at `handle`.
        func holdsObject(at handle: UInt32) throws(TPMError) -> Bool {
            var object: ESYS_TR = ESYS_TR(ESYS_TR_NONE)
            let code = api.Esys_TR_FromTPMPublic(context, TPM2_HANDLE(handle), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &object)
            if code == TSS2_RC_SUCCESS {
                _ = api.Esys_TR_Close(context, &object)
                return true
            }
            // TPM_RC_HANDLE (format 1, error 0x0B), whichever handle it names: nothing there.
            if code & 0xFFFF_F0BF == 0x08B { return false }
            throw TPMError("looking at handle 0x\(String(handle, radix: 16))", code: code, api: api)
        }

        func close() {
            var context: OpaquePointer? = context, tcti: OpaquePointer? = tcti
            api.Esys_Finalize(&context)
            api.Tss2_TctiLdr_Finalize(&tcti)
        }
    }
}

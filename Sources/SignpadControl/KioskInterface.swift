import SignpadVarlink

/// The interface `org.signpad.Kiosk`, as `GetInterfaceDescription` returns it. The same text is
/// `varlink/org.signpad.Kiosk.varlink` in the repository and the package (a test holds them equal).
public enum KioskInterface {
    public static let name = "org.signpad.Kiosk"

    public static let varlink = VarlinkInterface(
        name: name, description: description,
        methods: ["RequestSignature", "CancelRequest", "GetResult", "GetStatus"])

    public static let description = """
        # signpad, the kiosk signature pad: a point of sale asks the customer for a
        # signature, shows what is being signed, and gets the result back.
        # One request is under way at a time. A request's id is also the signature's:
        # its exported files are named after it, and start with the reference.
        # A request belongs to the user (uid) that asked: only that user, or root, sees
        # its id and reference, cancels it and gets its result; to any other it is
        # NoSuchRequest, and the kiosk shows only that it is busy.
        interface org.signpad.Kiosk

        # One exported file, as the signature's .meta.json lists it.
        type File (name: string, bytes: int, sha256: string)

        # A request under way; id and reference only for the user who asked, or root.
        type Request (id: ?string, reference: ?string, since: string)

        # Where a document is signed: a PDF the point of sale wrote into the kiosk's
        # documents folder (documents.directory), its SHA-256, and where the signature
        # goes: the unsigned signature field named field, else (no field named) the
        # first unsigned one, else a new field at rect ([x0, y0, x1, y1], points from
        # the page's bottom left, on the page) on page (from 1; default 1; page goes
        # only with rect), named field when given.
        type Document (path: string, sha256: string, field: ?string, page: ?int, rect: ?[]float)

        # The signed document: its path once written, and its SHA-256 as signed (a
        # time-stamp token put into its signature later changes the file, not what
        # was signed).
        type SignedDocument (path: string, sha256: string)

        # Asks the customer to sign. title and lines (an amount, consent wording) are
        # shown above the signing box. signer, reason and documentSha256 go into the
        # record. With document, the signature is also placed in that PDF, signed by
        # the kiosk (PAdES): the file is read and checked first, and nothing is shown
        # until it is (DocumentRefused says why it cannot be); documentSha256 is then
        # the document's. timeoutSeconds: how long the pad may go untouched before the
        # request ends timedOut (5 to 3600; default: the kiosk's idle_timeout held to
        # 5 to 3600, or 300 where that is 0). Called with "more", progress comes
        # first, one reply each: shown (on screen; the id is known from here on),
        # reviewed (with document: read, and Sign tapped), ink (the first stroke),
        # cleared (the customer cleared the box); the last reply has the status.
        # signed: files lists what was written, stored says where (saved: in the export
        # folder; kept: in the spool, the folder failing, written once it answers;
        # held: in memory only, the folder and the spool failing); image is the PNG,
        # base64, when returnImage was true. failed: reason says why.
        method RequestSignature(
          reference: string,
          title: ?string,
          lines: ?[]string,
          signer: ?string,
          reason: ?string,
          documentSha256: ?string,
          timeoutSeconds: ?float,
          returnImage: ?bool,
          document: ?Document
        ) -> (
          id: string,
          reference: string,
          progress: ?(shown, reviewed, ink, cleared),
          status: ?(signed, cancelled, timedOut, failed),
          reason: ?string,
          stored: ?(saved, kept, held),
          files: ?[]File,
          image: ?string,
          document: ?SignedDocument
        )

        # Ends the request under way: the screen goes back to idle, the request
        # answers cancelled, nothing is saved.
        method CancelRequest(id: string) -> ()

        # The result of a request that ended, for a point of sale that lost its
        # connection or restarted: kept for the last 100 requests, or 24 hours, across
        # restarts of signpad. A request under way when signpad stopped answers failed;
        # the request still under way answers Busy.
        method GetResult(id: string) -> (
          id: string,
          reference: string,
          status: (signed, cancelled, timedOut, failed),
          reason: ?string,
          stored: ?(saved, kept, held),
          files: ?[]File,
          document: ?SignedDocument,
          endedAt: string
        )

        # What the kiosk is doing: its display and input devices, the export folder's
        # health, signatures waiting to be written, and the request under way;
        # signingKey is the SHA-256 (hex) of the public key that signs each manifest,
        # recipientCertificate that of the certificate biometric data is sealed to,
        # certificateExpires when that certificate ends (RFC 3339): after it nothing is
        # sealed, and requests are answered NotReady. longestTurnMs is the longest the
        # kiosk's loop worked in one go since start (ink, replies and the watchdog wait
        # on it), longestTurnAt when that turn ended, longestTurnHandled what woke it
        # (signals, exports, control, input, clocks). With a time-stamp authority,
        # timestampsAwaited counts written signatures whose token has not come yet.
        method GetStatus() -> (
          kiosk: string,
          mode: (walkUp, requested),
          display: ?string,
          inputs: []string,
          exportFolder: string,
          exportFailing: ?string,
          unwritten: int,
          request: ?Request,
          signingKey: string,
          recipientCertificate: ?string,
          certificateExpires: ?string,
          longestTurnMs: float,
          longestTurnAt: ?string,
          longestTurnHandled: ?[]string,
          timestampsAwaited: ?int
        )

        # A request is under way; one at a time. id and reference only for the user
        # who asked, or root.
        error Busy (id: ?string, reference: ?string)

        # No request has this id that is the caller's (or its result is older than what
        # is kept).
        error NoSuchRequest (id: string)

        # A parameter's value is outside what signpad takes: expected says what is.
        error InvalidParameter (parameter: string, expected: string)

        # The document a request named cannot be signed: not in the documents
        # folder, not a regular file, larger than documents.max_bytes, another SHA-256
        # than the request's, not a PDF signpad can read, or no field to sign in.
        error DocumentRefused (path: string, reason: string)

        # The kiosk cannot take a request now: no display, no input device, or the
        # recipient certificate has expired.
        error NotReady (reason: string)

        """
}

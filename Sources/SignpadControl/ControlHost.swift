import SignpadVarlink

/// What the control service asks of whoever runs the kiosk, while it answers the calls handed to
/// it (`ControlService.handle`): passed with them, never kept.
public protocol ControlHost: AnyObject {
    /// `GetStatus`'s answer: what `systemctl status` says, as data.
    func kioskStatus() -> [String: JSONValue]
    /// Why a request cannot be shown now besides no kiosk on a display (no input device, the
    /// certificate ended); nil: it can.
    func notReadyReason() -> String?
}

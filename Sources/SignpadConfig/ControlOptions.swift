/// The point of sale's API (`[control]`): declared here, as the control module sits above the
/// configuration in the package graph.
public struct ControlOptions: Equatable, Sendable {
    /// The Varlink socket; nil: no API.
    public var socket: String? = "/run/signpad/control.sock"
    /// The group whose members may connect to it; nil: the signpad user's own.
    public var group: String? = "signpad-pos"
    /// Where the results of the last requests are kept across restarts, for `GetResult`.
    public var results = "/var/lib/signpad/requests.json"

    public init() {}
}

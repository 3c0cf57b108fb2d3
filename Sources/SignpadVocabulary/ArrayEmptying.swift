extension Array {
    /// Empties the array and keeps its storage, element by element from the end. For the few
    /// elements a per-event buffer holds it costs a fraction of `removeAll(keepingCapacity:)`,
    /// which goes through the generic `replaceSubrange`.
    @inlinable
    public mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}

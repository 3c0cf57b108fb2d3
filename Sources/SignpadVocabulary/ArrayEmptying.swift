extension Array {
    /// Empties the array and keeps its storage, if no other array shares it. A per-event buffer
    /// holds a few elements, and removing them one by one from the end (about 17 instructions
    /// each) costs a fraction of `removeAll(keepingCapacity:)`, which goes through the generic
    /// `replaceSubrange` at about a hundred whatever the count; past eight, that is the cheaper.
    @inlinable @inline(__always)
    public mutating func removeAllKeepingStorage() {
        guard count <= 8 else { return removeAll(keepingCapacity: true) }
        while !isEmpty { removeLast() }
    }
}

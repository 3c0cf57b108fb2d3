import SignpadVocabulary

extension Signature {
    /// The smoothed ink, exactly as the screen drew it.
    public func pieces(options: SmootherOptions) -> [[InkPiece]] {
        strokes.map { stroke in
            var smoother = MidpointSmoother(options: options)
            var pieces: [InkPiece] = []
            for (i, s) in stroke.enumerated() { pieces.append(contentsOf: smoother.handle(i == 0 ? .down(s) : .move(s)).dry) }
            pieces.append(contentsOf: smoother.handle(.up).dry)
            return pieces
        }
    }
}

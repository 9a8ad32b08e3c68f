extension Unicode.Scalar {
    /// Whether a terminal or a log viewer acts on the scalar instead of showing it: a control (C0, DEL,
    /// C1: newlines, escape sequences), a line or paragraph separator, or an invisible formatting
    /// character such as a bidirectional override, which shows the rest of a line in another order
    /// than it is written. What a client wrote is shown with these escaped.
    public var actsOnTerminal: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

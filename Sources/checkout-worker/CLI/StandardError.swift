import Foundation

/// Notes for the operator beside output that scripts read, written at once like ``StandardOutput``.
enum StandardError {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

import Foundation

/// Lines for the operator, written at once rather than buffered when standard output is a pipe, so
/// that a long operation shows its progress and what was printed is what was done, even if it is killed.
enum StandardOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

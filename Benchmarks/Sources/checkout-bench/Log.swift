import Foundation

/// Progress goes to stderr, so that stdout holds only the Markdown for BENCHMARKS.md.
func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

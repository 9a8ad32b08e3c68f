import CheckoutOperations
import Foundation

/// A client's text made safe to print on an operator's terminal.
///
/// A dead letter's routing key, `message_id`, headers and body are whatever a client sent: an escape
/// sequence among them could move the cursor over earlier lines, rewrite the window's title or set the
/// clipboard, and a bidirectional override could show a row in another order than it is written.
enum TerminalText {
    /// `text` with every scalar that acts on a terminal (``Swift/Unicode/Scalar/actsOnTerminal``) written
    /// as an escape: `\n`, `\r`, `\t`, `\xHH` below U+0100, `\u{HHHH}` above; and a backslash as `\\`,
    /// so that a client's text `\x1B` does not read as an escape. `quoted`, in double quotes, with
    /// quotes escaped too.
    static func escaped(_ text: String, quoted: Bool = false) -> String {
        let escaped = escapingActors(text, backslashes: true)
        return quoted ? "\"\(escaped.replacing("\"", with: "\\\""))\"" : escaped
    }

    /// Each line of `text` with the scalars that act on a terminal escaped, its newlines and backslashes
    /// kept: for JSON written out indented, whose strings escape C0 controls and backslashes already,
    /// and leave C1 controls and formatting characters as they are.
    static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingActors(String($0), backslashes: false) }
            .joined(separator: "\n")
    }

    /// Printable ASCII as it is, a backslash as `\\`, newlines and tabs as `\n`, `\r`, `\t`, every
    /// other byte as `\xHH`: for a body that is not JSON, which need not be UTF-8.
    static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            case 0x20...0x7E: text.unicodeScalars.append(UnicodeScalar(byte))
            default: text += String(format: "\\x%02X", byte)
            }
        }
        return text
    }

    private static func escapingActors(_ text: String, backslashes: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where backslashes: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where !scalar.actsOnTerminal: result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x100: result += String(format: "\\x%02X", scalar.value)
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }
}

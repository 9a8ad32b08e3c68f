import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the operations server answered to one request.
struct HTTPResult {
    let status: Int
    let contentType: String?
    let body: String

    /// Sends `GET path` to the server on this machine, with a bound wait so a hung server fails the test.
    static func get(_ path: String, port: Int) async throws -> HTTPResult {
        try await send("GET", path, port: port)
    }

    /// Sends `HEAD path`, as `get` does.
    static func head(_ path: String, port: Int) async throws -> HTTPResult {
        try await send("HEAD", path, port: port)
    }

    private static func send(_ method: String, _ path: String, port: Int) async throws -> HTTPResult {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 10
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return HTTPResult(
            status: http.statusCode,
            contentType: http.value(forHTTPHeaderField: "Content-Type"),
            body: String(decoding: data, as: UTF8.self)
        )
    }
}

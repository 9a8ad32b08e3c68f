import Foundation
import Logging

enum TestLogger {
    static let logger: Logger = {
        var logger = Logger(label: "persistence-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()
}

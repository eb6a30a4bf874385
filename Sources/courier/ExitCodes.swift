import ArgumentParser
import Courier

/// Exit codes of `courier request` and the other network commands, one per ``NetworkError/Family``.
enum ExitCodes {
    static func code(for family: NetworkError.Family) -> Int32 {
        switch family {
        case .transport: 10
        case .client: 11
        case .server: 12
        case .authorization: 13
        case .response: 14
        case .request: 15
        case .cancelled: 16
        }
    }

    /// The table shown in `--help`.
    static let help = """
        Exit codes: 0 success; 10 transport (refused, timeout, DNS, TLS, redirects); 11 client \
        error answer (4xx); 12 server error answer (5xx); 13 authorization (401, key, quota); \
        14 unusable response (bad JSON, too large, cut off); 15 request not sent (bad URL, \
        insecure http://, encoding); 16 cancelled; 64 bad usage; 130 interrupted (Ctrl-C; \
        at a password prompt the terminal's echo is put back first).
        """
}

import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import OpenAPIRuntime

/// The transport a command sends through, and its proxy — in curl's words: `--proxy URL`
/// (`-x`), `--noproxy LIST`, and the proxy variables (`http_proxy` in lower case only,
/// `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`), read by default as curl reads them; a loopback host
/// never goes through a proxy from the environment.
///
/// A proxy password is never needed on the command line: `--proxy http://user@host:port` takes
/// it from `--proxy-password-file FILE`, else `COURIER_PROXY_PASSWORD`, else a prompt on a
/// terminal (its echo off).
struct TransportOptions: ParsableArguments {
    @Option(name: .long, help: "Transport: ahc (AsyncHTTPClient, default) or urlsession.") var transport: String = "ahc"
    @Option(
        name: [.customShort("x"), .long],
        help: ArgumentHelp(
            "A proxy for every URL: http://[user[:password]@]host:port, socks5://host:port (as curl -x).",
            discussion:
                "Without it, the proxy variables are read as curl reads them; a user without a password takes it from --proxy-password-file, COURIER_PROXY_PASSWORD or a prompt."
        ))
    var proxy: String?
    @Option(name: .long, help: "Hosts that go direct, comma-separated ('*' for all), as curl's --noproxy.") var noproxy: String?
    @Option(name: .long, help: "A file holding the proxy password (one line).") var proxyPasswordFile: String?

    /// The transport to use, with the proxy rules from the options and `environment`.
    func make(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any ClientTransport {
        guard transport == "ahc" || transport == "urlsession" else { throw ValidationError("--transport must be ahc or urlsession") }
        if transport == "urlsession" {
            // FoundationNetworking ignores a session's proxy settings; libcurl reads the proxy
            // variables itself. An option it cannot honour is refused, not silently ignored.
            if proxy != nil || noproxy != nil || proxyPasswordFile != nil {
                throw ValidationError(
                    "--proxy, --noproxy and --proxy-password-file need --transport ahc: URLSession on Linux ignores proxy settings (libcurl reads the proxy variables itself)"
                )
            }
            return URLSessionClientTransport.shared
        }
        guard var rules = try rules(environment: environment), !rules.isEmpty else { return HTTPClientTransport.shared }
        if let noproxy { rules.noProxy += noproxy.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        var settings = HTTPClientTransport.Settings()
        settings.proxy = rules
        return HTTPClientTransport(settings: settings)
    }

    /// The rules `--proxy` gives (loopback through it, as curl's), else the environment's.
    func rules(environment: [String: String]) throws -> ProxyRules? {
        do {
            guard let proxy else { return try ProxyRules(environment: environment) }
            var parsed = try HTTPProxy(url: proxy)
            if parsed.username != nil, parsed.password == nil {
                parsed.password = try password(environment: environment)
            }
            return ProxyRules(all: parsed)
        } catch let error as ProxyError {
            throw ValidationError(proxy == nil ? "the proxy variables: \(error)" : "--proxy: \(error)")
        }
    }

    /// The proxy password: `--proxy-password-file`, `COURIER_PROXY_PASSWORD`, or a prompt.
    private func password(environment: [String: String]) throws -> String {
        if let found = try SecretSource.resolve(
            flag: nil, flagName: "--proxy", file: proxyPasswordFile, fileName: "--proxy-password-file",
            environment: ["COURIER_PROXY_PASSWORD"], from: environment)
        {
            return found
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("--proxy names a user but no password: give --proxy-password-file or COURIER_PROXY_PASSWORD")
        }
        Terminal.write("proxy password: ", to: STDERR_FILENO)
        guard let typed = HiddenInput.readLine(), !typed.isEmpty else { throw ValidationError("no proxy password given") }
        return typed
    }
}

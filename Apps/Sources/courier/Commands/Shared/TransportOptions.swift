import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierTransportCore
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
    @Option(name: .long, help: "Trust only the certificate authorities in this PEM file (as curl --cacert).") var cacert: String?
    @Option(name: .long, help: "The server's public key must match: sha256//BASE64[;sha256//…] (as curl --pinnedpubkey).") var pinnedpubkey: String?
    @Option(name: .long, help: "A client certificate: PEM (with --key), or PKCS#12 with --cert-type P12.") var cert: String?
    @Option(name: .long, help: "The client certificate's private key, PEM (unencrypted; keep it 0600).") var key: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The --cert file's type: PEM (default) or P12 (PKCS#12, the key inside), as curl's --cert-type.",
            discussion: "A PKCS#12 passphrase comes from --cert-password-file, else COURIER_CERT_PASSWORD, else none."))
    var certType: String = "PEM"
    @Option(name: .long, help: "A file holding the PKCS#12 passphrase (one line).") var certPasswordFile: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "HOST:PORT:ADDRESS — dial ADDRESS for HOST, keeping the name for Host, TLS and the certificate (as curl's --resolve).",
            discussion: "Repeatable. AsyncHTTPClient maps names, not name and port: the address serves every port of HOST."))
    var resolve: [String] = []
    @Flag(name: .customLong("http1.1"), help: "HTTP/1.1 only.") var http11 = false
    @Flag(name: .customLong("http2"), help: "HTTP/2 when the server offers it (the default over https).") var http2 = false

    /// The transport to use, with the proxy rules from the options and `environment`; with
    /// `connectionsPerHost` (`courier bench -c`), an AsyncHTTPClient pool that keeps at least that
    /// many connections per host (the default keeps 64: more calls in flight would queue for one).
    func make(environment: [String: String] = ProcessInfo.processInfo.environment, connectionsPerHost: Int? = nil) throws -> any ClientTransport {
        guard transport == "ahc" || transport == "urlsession" else { throw ValidationError("--transport must be ahc or urlsession") }
        if http11 && http2 { throw ValidationError("use either --http1.1 or --http2") }
        let tls = try tlsSettings(environment: environment)
        let addresses = try resolvedAddresses()
        if transport == "urlsession" {
            // FoundationNetworking ignores a session's proxy settings (libcurl reads the proxy
            // variables itself) and has no trust, client-certificate or version setting. An
            // option it cannot honour is refused, not silently ignored.
            if proxy != nil || noproxy != nil || proxyPasswordFile != nil {
                throw ValidationError(
                    "--proxy, --noproxy and --proxy-password-file need --transport ahc: URLSession on Linux ignores proxy settings (libcurl reads the proxy variables itself)"
                )
            }
            if !tls.isDefault || http11 || !addresses.isEmpty {
                throw ValidationError(
                    "--cacert, --pinnedpubkey, --cert/--key, --resolve and --http1.1 need --transport ahc: URLSession on Linux cannot apply them")
            }
            return URLSessionClientTransport.shared
        }
        var rules = try rules(environment: environment)
        if let noproxy, rules != nil {
            rules?.noProxy += noproxy.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var settings = HTTPClientTransport.Settings()
        let pool = max(settings.connectionsPerHost, connectionsPerHost ?? 0)
        if rules?.isEmpty ?? true, tls.isDefault, !http11, addresses.isEmpty, pool == settings.connectionsPerHost {
            return HTTPClientTransport.shared
        }
        settings.connectionsPerHost = pool
        settings.proxy = rules?.isEmpty == false ? rules : nil
        settings.tls = tls
        settings.http2 = !http11
        settings.resolve = addresses
        do {
            return try HTTPClientTransport(validating: settings)
        } catch {
            throw ValidationError("TLS: \(error)")
        }
    }

    /// `--cacert`, `--pinnedpubkey`, `--cert`/`--key`/`--cert-type` as ``TLSSettings`` (files read
    /// whole, at most 1 MiB).
    func tlsSettings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TLSSettings {
        var tls = TLSSettings()
        if let cacert { tls.roots = .only(pem: try Self.pem(cacert, option: "--cacert")) }
        if let pinnedpubkey { tls.pins = pinnedpubkey.split(separator: ";").map(String.init) }
        switch certType.uppercased() {
        case "PEM":
            if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together (or --cert-type P12)") }
            if certPasswordFile != nil { throw ValidationError("--cert-password-file is for --cert-type P12") }
            if let cert, let key {
                tls.clientCertificate = TLSSettings.ClientCertificate(
                    certificateChainPEM: try Self.pem(cert, option: "--cert"), privateKeyPEM: try SecretSource.readText(key, option: "--key"))
            }
        case "P12":
            guard let cert, key == nil else { throw ValidationError("--cert-type P12 takes the certificate and its key from --cert alone") }
            let passphrase = try SecretSource.resolve(
                flag: nil, flagName: "--cert", file: certPasswordFile, fileName: "--cert-password-file",
                environment: ["COURIER_CERT_PASSWORD"], from: environment)
            tls.clientCertificate = TLSSettings.ClientCertificate(
                pkcs12: Data(try SecretSource.readBytes(cert, option: "--cert")), passphrase: passphrase ?? "")
        default:
            throw ValidationError("--cert-type must be PEM or P12")
        }
        return tls
    }

    /// `--resolve HOST:PORT:ADDRESS` entries as names → addresses (an IPv6 address with or
    /// without brackets); the last entry for a name wins.
    func resolvedAddresses() throws -> [String: String] {
        var addresses: [String: String] = [:]
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port) else {
                throw ValidationError("--resolve \(entry): expected HOST:PORT:ADDRESS")
            }
            var address = parts[2]
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            var v4 = in_addr()
            var v6 = in6_addr()
            guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else {
                throw ValidationError("--resolve \(entry): '\(parts[2])' is not an IP address")
            }
            addresses[parts[0].lowercased()] = address
        }
        return addresses
    }

    private static func pem(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20, let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(option) \(path): not a readable PEM file (at most 1 MiB)")
        }
        return text
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

import CourierAsyncHTTPClient
import Foundation
import Testing

/// `ProxyRules` and `HTTPProxy` read as curl reads the proxy variables and `--proxy`.
@Suite("Proxies: rules from settings and from the environment")
struct ProxyRulesTests {
    static func url(_ text: String) -> URL { URL(string: text)! }

    @Test("the environment as curl reads it: http_proxy in lower case only (httpoxy), HTTPS_PROXY either case, ALL_PROXY as the fallback")
    func environment() throws {
        let upperOnly = try ProxyRules(environment: ["HTTP_PROXY": "http://evil:8080"])
        #expect(upperOnly.http == nil, "HTTP_PROXY is what a CGI server sets from a request's Proxy: header")
        let rules = try ProxyRules(environment: [
            "http_proxy": "proxy.corp:3128", "HTTPS_PROXY": "http://secure.corp:3129", "ALL_PROXY": "socks5://all.corp",
            "NO_PROXY": "internal.corp, .svc",
        ])
        #expect(rules.http == HTTPProxy(kind: .http, host: "proxy.corp", port: 3128))
        #expect(rules.https == HTTPProxy(kind: .http, host: "secure.corp", port: 3129))
        #expect(rules.proxy(for: Self.url("https://api.example.com/v1")) == rules.https)
        #expect(rules.proxy(for: Self.url("http://internal.corp/x")) == nil)
        #expect(rules.proxy(for: Self.url("http://a.b.internal.corp/x")) == nil)
        #expect(rules.proxy(for: Self.url("http://db.svc/x")) == nil)
        #expect(rules.proxy(for: Self.url("http://notinternal.corp/x")) == rules.http)
        let fallback = try ProxyRules(environment: ["all_proxy": "socks5h://all.corp"])
        #expect(fallback.http == HTTPProxy(kind: .socks5, host: "all.corp", port: 1080) && fallback.https == fallback.http)
        #expect(try ProxyRules(environment: ["https_proxy": "  "]).isEmpty)
    }

    @Test("loopback never goes through an environment proxy; explicit rules send it through")
    func loopback() throws {
        let environment = try ProxyRules(environment: ["http_proxy": "http://proxy:3128", "https_proxy": "http://proxy:3128"])
        for host in ["http://127.0.0.1:8080/", "http://localhost/", "http://api.localhost/", "http://[::1]:8080/", "https://127.1.2.3/"] {
            #expect(environment.proxy(for: Self.url(host)) == nil, "\(host)")
        }
        let explicit = ProxyRules(all: HTTPProxy(kind: .http, host: "proxy", port: 3128))
        #expect(explicit.proxy(for: Self.url("http://127.0.0.1:8080/")) != nil)
        #expect(ProxyRules(all: HTTPProxy(kind: .http, host: "p", port: 1), noProxy: ["*"]).proxy(for: Self.url("http://example.com")) == nil)
    }

    @Test("proxy URLs: credentials percent-decoded and never shown; SOCKS5 with credentials refused; other schemes refused")
    func urls() throws {
        let proxy = try HTTPProxy(url: "http://us%40er:p%3Ass@proxy.corp:8080")
        #expect(proxy.username == "us@er" && proxy.password == "p:ss" && proxy.port == 8080)
        #expect(!proxy.description.contains("p:ss") && proxy.description == "http://proxy.corp:8080")
        #expect(throws: ProxyError.socksCredentials) { try HTTPProxy(url: "socks5://user:pass@proxy:1080") }
        #expect(throws: ProxyError.unsupportedScheme("ftp")) { try HTTPProxy(url: "ftp://proxy:21") }
        #expect(throws: ProxyError.invalid("http://***@:80")) { try HTTPProxy(url: "http://user:secret@:80") }
        #expect(try HTTPProxy(url: "proxy.corp").port == 80)
    }
}

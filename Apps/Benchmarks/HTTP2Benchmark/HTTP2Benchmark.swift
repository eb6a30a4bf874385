import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import CourierTransportCore
import Foundation
import IntegrationTestSupport
import NIOPosix

// HTTP/2 vs HTTP/1.1 over TLS on loopback, through Courier's AsyncHTTPClient transport, against the
// sandbox serving HTTPS (HTTP/2 by ALPN; certificates made with openssl), its server on event
// loops of its own. Small JSON calls at concurrency 1 and 32, interleaved rounds, side by side:
// calls per second and p50 latency, HTTP/2 ÷ HTTP/1.1. Also the connections each needed.
//
//   swift run -c release --package-path Apps HTTP2Benchmark [--calls 4000] [--rounds 3]

@main
struct HTTP2Benchmark {
    static func main() async throws {
        var calls = 4000
        var rounds = 3
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--calls": calls = Int(arguments.next() ?? "") ?? calls
            case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
            default: print("unknown option \(argument)")
            }
        }
        let certificates = try await TestCertificates.shared.value
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var options = SandboxServer.Options()
        options.eventLoopGroup = loops
        options.tls = SandboxServer.TLS(certificateChainPEM: certificates.serverChainPEM, privateKeyPEM: certificates.serverKeyPEM)
        let sandbox = try await SandboxServer.start(options: options)
        let url = sandbox.baseURL.appendingPathComponent("cookies")
        print(
            "HTTP/2 vs HTTP/1.1 over TLS (loopback, Courier's AsyncHTTPClient transport), \(calls) small JSON calls per run, p50 of \(rounds) interleaved rounds"
        )
        print("concurrency  protocol   calls/s     p50 µs  connections")
        for concurrency in [1, 32] {
            var results: [Bool: (rate: [Double], p50: [Double])] = [true: ([], []), false: ([], [])]
            var connections: [Bool: Int] = [:]
            for _ in 0..<rounds {
                for http2 in [true, false] {
                    var settings = HTTPClientTransport.Settings()
                    settings.tls = TLSSettings(roots: .only(pem: certificates.caPEM))
                    settings.http2 = http2
                    settings.connectionsPerHost = 64
                    let transport = try HTTPClientTransport(validating: settings)
                    let client = NetworkClient(transport: transport)
                    let before = sandbox.acceptedConnections
                    _ = try await client.response(Plain(url: url))  // warm-up: the connection
                    let (rate, p50) = try await run(client, url, calls: calls, concurrency: concurrency)
                    connections[http2] = sandbox.acceptedConnections - before
                    results[http2]!.rate.append(rate)
                    results[http2]!.p50.append(p50)
                    try await transport.shutdown()
                }
            }
            for http2 in [true, false] {
                let rate = median(results[http2]!.rate)
                let p50 = median(results[http2]!.p50)
                print(
                    String(
                        format: "%11d  %-8@ %9.0f %10.1f %12d", concurrency, http2 ? "HTTP/2" : "HTTP/1.1", rate, p50 * 1e6, connections[http2] ?? 0))
            }
            let ratio = median(results[true]!.rate) / median(results[false]!.rate)
            print(String(format: "%11d  HTTP/2 ÷ HTTP/1.1 throughput: %.2f×", concurrency, ratio))
        }
        await sandbox.stop()
        try await loops.shutdownGracefully()
    }

    struct Plain: Endpoint {
        let url: URL
        var baseURL: URL { url.deletingLastPathComponent() }
        var path: String { "/" + url.lastPathComponent }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
    }

    /// `calls` calls with `concurrency` in flight: calls per second and the p50 latency in seconds.
    static func run(_ client: NetworkClient, _ url: URL, calls: Int, concurrency: Int) async throws -> (Double, Double) {
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var mine: [Double] = []
                    for _ in stride(from: worker, to: calls, by: concurrency) {
                        let begin = ContinuousClock.now
                        _ = try await client.response(Plain(url: url))
                        mine.append(seconds(ContinuousClock.now - begin))
                    }
                    return mine
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        return (Double(calls) / seconds(ContinuousClock.now - start), median(latencies))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

// Registrations and logins per second through Courier against the in-process sandbox, the
// bcrypt cost and its per-hash time, and whether cheap requests stay fast while hashes run.
//
//   swift run -c release --scratch-path .build-accounts AccountsBenchmark [requests] [concurrency]
import AccountsAPI
import AsyncHTTPClient
import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import HummingbirdBcrypt
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let requests = arguments.first ?? 200
let concurrency = arguments.dropFirst().first ?? 8
let cores = ProcessInfo.processInfo.activeProcessorCount

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// Runs `body(index)` `count` times, at most `width` at once; returns the wall time and failures.
func run(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async -> Bool) async -> (Duration, Int) {
    let start = ContinuousClock.now
    let failures = await withTaskGroup(of: Bool.self) { group in
        var next = 0
        var failures = 0
        while next < min(width, count) {
            let index = next
            group.addTask { await body(index) }
            next += 1
        }
        while let ok = await group.next() {
            if !ok { failures += 1 }
            if next < count {
                let index = next
                group.addTask { await body(index) }
                next += 1
            }
        }
        return failures
    }
    return (ContinuousClock.now - start, failures)
}

// 1. bcrypt alone, one thread.
print("bcrypt (HummingbirdBcrypt), one thread, \(cores) cores:")
for cost: UInt8 in [10, 11, 12] {
    let rounds = cost == 10 ? 10 : 4
    let start = ContinuousClock.now
    var hash = ""
    for _ in 0..<rounds { hash = Bcrypt.hash("Passw0rd!", cost: cost) }
    let hashTime = seconds(ContinuousClock.now - start) / Double(rounds)
    let verifyStart = ContinuousClock.now
    for _ in 0..<rounds { _ = Bcrypt.verify("Passw0rd!", hash: hash) }
    let verifyTime = seconds(ContinuousClock.now - verifyStart) / Double(rounds)
    print(
        "  cost \(cost): hash \(format(hashTime * 1000)) ms, verify \(format(verifyTime * 1000)) ms → at most \(format(Double(cores) / verifyTime)) logins/s on \(cores) cores"
    )
}

// 2. Through Courier against the sandbox (release build, default cost 10).
var settings = AccountsSettings()
settings.loginLimits.attemptsPerAddress = 1_000_000
settings.loginLimits.failuresPerUsername = 1_000_000
var options = SandboxServer.Options()
let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-accounts-bench-\(UUID().uuidString)")
options.dataDirectory = dataDirectory
let sandbox = try await AccountsSettings.$override.withValue(settings) { try await SandboxServer.start(options: options) }
let server = sandbox.baseURL
let client = NetworkClient(configuration: .init(baseURL: server))
let prefix = "bench_\(UUID().uuidString.prefix(6).lowercased())"
print(
    "\nThrough Courier (NetworkClient + UserAPI) against the sandbox, bcrypt cost \(settings.bcryptCost), \(requests) requests, \(concurrency) at a time:"
)

let (registerTime, registerFailures) = await run(requests, width: concurrency) { index in
    let request = RegisterRequest(username: "\(prefix)_\(index)", password: "Passw0rd!", name: "홍길동", email: "hong@example.com", age: 25)
    return (try? await client.request(UserAPI.register(request), as: APIResponse<UserResponse>.self))?.success == true
}
print(
    "  registrations: \(format(Double(requests) / seconds(registerTime))) /s (\(format(seconds(registerTime) * 1000 / Double(requests) * Double(concurrency))) ms each at \(concurrency) in flight, \(registerFailures) failed)"
)

// Logins through Courier and through raw AsyncHTTPClient, interleaved in rounds so that load
// from other processes falls on both alike.
let http = HTTPClient.shared
func courierLogin(_ index: Int) async -> Bool {
    let request = LoginRequest(username: "\(prefix)_\(index % requests)", password: "Passw0rd!")
    return (try? await client.request(UserAPI.login(request), as: APIResponse<LoginResponse>.self))?.data?.token != nil
}
func rawLogin(_ index: Int) async -> Bool {
    var request = HTTPClientRequest(url: server.absoluteString + "/api/v1/auth/login")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(string: #"{"username":"\#(prefix)_\#(index % requests)","password":"Passw0rd!"}"#))
    guard let response = try? await http.execute(request, timeout: .seconds(30)) else { return false }
    _ = try? await response.body.collect(upTo: 1 << 20)
    return response.status.code == 200
}
let rounds = 4
let perRound = max(1, requests / rounds)
var loginTime = Duration.zero
var rawTime = Duration.zero
var loginFailures = 0
var rawFailures = 0
for _ in 0..<rounds {
    let (courierRound, courierFailed) = await run(perRound, width: concurrency) { await courierLogin($0) }
    let (rawRound, rawFailed) = await run(perRound, width: concurrency) { await rawLogin($0) }
    loginTime += courierRound
    rawTime += rawRound
    loginFailures += courierFailed
    rawFailures += rawFailed
}
let loginRate = Double(rounds * perRound) / seconds(loginTime)
let rawRate = Double(rounds * perRound) / seconds(rawTime)
print(
    "  logins:        \(format(loginRate)) /s (\(loginFailures) failed); raw AsyncHTTPClient, interleaved: \(format(rawRate)) /s (\(rawFailures) failed) → Courier/raw \(format(loginRate / rawRate, 2))×"
)

let (wrongTime, _) = await run(requests / 2, width: concurrency) { index in
    let request = LoginRequest(username: "\(prefix)_\(index)", password: "Wrong0pass")
    return (try? await client.response(UserAPI.login(request))) == nil
}
print("  wrong-password logins: \(format(Double(requests / 2) / seconds(wrongTime))) /s (same bcrypt work as a good one)")
let (unknownTime, _) = await run(requests / 2, width: concurrency) { index in
    let request = LoginRequest(username: "nobody_\(prefix)_\(index)", password: "Wrong0pass")
    return (try? await client.response(UserAPI.login(request))) == nil
}
print("  unknown-user logins:   \(format(Double(requests / 2) / seconds(unknownTime))) /s (checked against a dummy hash: same time, same answer)")

// 4. A request that needs no hash, alone and while logins keep every core hashing.
func probe(_ count: Int) async -> [Double] {
    var samples: [Double] = []
    for _ in 0..<count {
        let start = ContinuousClock.now
        _ = try? await client.response(UserAPI.getUser(id: 1))  // 401, no bcrypt
        samples.append(seconds(ContinuousClock.now - start) * 1000)
    }
    return samples.sorted()
}
let idle = await probe(50)
let load = Task {
    await run(requests, width: concurrency) { index in
        let request = LoginRequest(username: "\(prefix)_\(index % requests)", password: "Passw0rd!")
        return (try? await client.response(UserAPI.login(request))) != nil
    }
}
try await Task.sleep(for: .milliseconds(200))
let busy = await probe(50)
_ = await load.value
print(
    "  GET /users/1 (401, no hash) p50/p95: idle \(format(idle[25], 2))/\(format(idle[47], 2)) ms, during \(concurrency) concurrent logins \(format(busy[25], 2))/\(format(busy[47], 2)) ms"
)

await sandbox.stop()
try? FileManager.default.removeItem(at: dataDirectory)

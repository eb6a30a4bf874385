import Foundation
import Synchronization

extension ChildProcess {
    /// The port of the first "listening on http://host:port" line read from any of `handles`
    /// (each read on its own Dispatch thread); nil when all of them end without one.
    public static func listeningPort(in handles: [FileHandle]) async -> Int? {
        let state = Mutex<(answered: Bool, ended: Int)>((false, 0))
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            @Sendable func answer(_ port: Int?) {
                let first = state.withLock { state -> Bool in
                    if port == nil { state.ended += 1 }
                    guard !state.answered, port != nil || state.ended == handles.count else { return false }
                    state.answered = true
                    return true
                }
                if first { continuation.resume(returning: port) }
            }
            for handle in handles {
                DispatchQueue.global().async {
                    var text = ""
                    while let chunk = try? handle.read(upToCount: 1), !chunk.isEmpty {
                        text += String(decoding: chunk, as: UTF8.self)
                        guard text.hasSuffix("\n") else { continue }
                        if let range = text.range(of: "listening on http://") {
                            let address = text[range.upperBound...].prefix { $0 != " " && $0 != "\n" }
                            return answer(address.split(separator: ":").last.flatMap { Int($0) })
                        }
                        text = ""
                    }
                    answer(nil)
                }
            }
        }
    }
}

import Foundation
import Hummingbird
import NIOCore

/// `GET /json`: a fixed ~400-byte JSON object (the benchmark's payload).
struct SampleRoutes {
    /// The payload of `/json`, also used by clients' tests to decode it.
    static let sampleJSON: ByteBuffer = {
        let text =
            #"{"id":8863,"type":"story","by":"dhouston","time":1175714200,"title":"My YC app: Dropbox - Throw away your USB drive","url":"http://www.getdropbox.com/u/2/screencast.html","score":111,"descendants":71,"kids":[9224,8917,8952,8958,8884,8887,8869,8940,8908,9005,8873,9671,9067,9055,8865,8881,8872,8955,10403,8903,8928,9125,8998,8901,8902,8907,8894,8870,8878,8980,8934,8876],"deleted":false,"dead":false}"#
        return ByteBuffer(string: text)
    }()

    func register(on router: Router<SandboxRequestContext>) {
        router.get("/json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: Self.sampleJSON))
        }
    }
}

import Testing

@testable import courier

/// The file name `courier download` takes from a URL when -o gives none.
@Suite("courier download: the file name from the URL")
struct DownloadFileNameTests {
    @Test(
        "the last segment, percent-decoded",
        arguments: [
            ("http://127.0.0.1/files/report.pdf", "report.pdf"), ("http://127.0.0.1/a/%EC%84%9C%EC%9A%B8.bin?x=1", "서울.bin"),
            ("https://example.com/x/my%20file.txt#frag", "my file.txt"),
        ])
    func accepted(_ url: String, _ name: String) throws {
        #expect(try DownloadCommand.fileName(from: url) == name)
    }

    @Test(
        "refused: empty, a dot name, a slash or backslash, a control character",
        arguments: [
            "http://127.0.0.1/", "http://127.0.0.1/files/", "http://127.0.0.1/files/.", "http://127.0.0.1/files/%2E%2E",
            "http://127.0.0.1/files/a%2Fb",
            "http://127.0.0.1/files/a%5Cb", "http://127.0.0.1/files/x%0Ay", "http://127.0.0.1/files/x%1B%5B2J", "http://127.0.0.1/files/x%C2%85",
            "http://127.0.0.1/files/x%7F", "ftp://127.0.0.1/files/a.bin",
        ])
    func refused(_ url: String) {
        #expect(throws: (any Error).self) { try DownloadCommand.fileName(from: url) }
    }

    @Test("the progress bar: percent, bytes, rate and time left with a total; bytes and rate only without")
    func progressLine() {
        let known = ProgressBar.line(
            .init(bytesDone: 44_000_000, bytesExpected: 104_857_600, bytesPerSecond: 95_300_000, isFinished: false), name: "big.bin", columns: 100)
        #expect(known.hasPrefix("big.bin  41% ["))
        #expect(known.contains("44.0 MB / 104.9 MB") && known.contains("95.3 MB/s") && known.hasSuffix("0:00 left"))
        #expect(known.count <= 99)
        let unknown = ProgressBar.line(
            .init(bytesDone: 1_500, bytesExpected: nil, bytesPerSecond: 2_000, isFinished: false), name: "s.bin", columns: 100)
        #expect(unknown == "s.bin  1.5 kB  2.0 kB/s")
        #expect(ProgressBar.line(.init(bytesDone: 5, bytesExpected: 10, bytesPerSecond: 1, isFinished: false), name: "n", columns: 20).count <= 19)
    }
}

public import Courier
import CourierTransportCore
public import Foundation
import OpenAPIRuntime

extension NetworkClient {
    /// Downloads what `endpoint` answers into the file at `destination`, streamed to disk with
    /// bounded memory whatever its size.
    ///
    /// ```swift
    /// let progress = TransferProgress()
    /// async let saved = client.download(SeoulCultureAPI.poster(url), to: posterURL, progress: progress)
    /// for await snapshot in progress { bar.show(snapshot) }
    /// let file = try await saved
    /// ```
    ///
    /// The body goes to `FILE.courier-partial` (0600) beside the target, asked with
    /// `Accept-Encoding: identity` (range offsets count the bytes as sent), and is synced and
    /// renamed over the target only when whole: the declared length reached and the checksum,
    /// if given, matched. An interrupted download — an error, cancellation, a killed process —
    /// leaves the partial and its state (`FILE.courier-resume`, 0600: the strong validator, the
    /// length, a keyed fingerprint of the URL, never the URL) for the next call to resume with
    /// `Range` and `If-Range` (``DownloadOptions/resume``). Within one call, a body cut off mid-way
    /// is resumed under the retry policy (``DownloadOptions/retry``). A full disk is
    /// `FileFailure/diskFull(path:)` with the partial kept; a second download to the same
    /// target, in any process, fails at once with `FileFailure/inUse(path:)`.
    ///
    /// The call takes the client's one path: middlewares, redirects (each hop the client's), the
    /// header limits; the endpoint's timeout bounds the wait for each response head and
    /// ``DownloadOptions/idleTimeout`` each silence after it.
    public func download(
        _ endpoint: some Endpoint, to destination: URL, options: DownloadOptions = DownloadOptions(), progress: TransferProgress? = nil
    ) async throws(NetworkError) -> DownloadedFile {
        let call: Call
        do {
            call = try self.call(for: endpoint)
        } catch {
            progress?.end(success: false)
            throw error
        }
        return try await FileDownloader(client: self, call: call, target: destination, options: options, progress: progress).run()
    }

    /// Sends `endpoint` — typically an upload (`HTTPTask/uploadFile(_:contentType:)`,
    /// `HTTPTask/uploadStream(_:length:contentType:)`, a multipart form) — reporting the
    /// request body's bytes to `progress` as the transport takes them; the answer as
    /// `response(_:)` gives it.
    ///
    /// A body sent again (a retry of a file upload) reports from zero again.
    public func upload(_ endpoint: some Endpoint, progress: TransferProgress) async throws(NetworkError) -> NetworkResponse {
        var call: Call
        do {
            call = try self.call(for: endpoint)
        } catch {
            progress.end(success: false)
            throw error
        }
        if let body = call.built.body {
            let wrapped = ProgressBody.wrap(body, progress: progress)
            call.built.body = wrapped
            // A file a transport sends itself (URLSession's upload from a file) is never read
            // through the wrapped body: that transport reports the bytes it sends instead.
            call.built.file = call.built.file.map { RequestFile(body: wrapped, path: $0.path, progress: progress) }
        }
        do {
            let response = try await send(call).validated()
            progress.end(success: true)
            return response
        } catch {
            progress.end(success: false)
            throw error
        }
    }

    /// The body `endpoint` answers with, chunk by chunk as it arrives (see ``ByteStream``).
    ///
    /// ```swift
    /// for try await chunk in client.bytes(Feeds.firehose) { parser.feed(chunk) }
    /// ```
    public func bytes(_ endpoint: some Endpoint, options: ByteStreamOptions = ByteStreamOptions()) -> ByteStream {
        let call: Result<Call, NetworkError>
        do {
            call = .success(try self.call(for: endpoint))
        } catch {
            call = .failure(error)
        }
        return ByteStream(client: self, call: call, options: options)
    }

    /// The body `endpoint` answers with, line by line as it arrives (see ``LineStream``).
    ///
    /// ```swift
    /// for try await line in client.lines(Logs.tail) { print(line) }
    /// ```
    public func lines(_ endpoint: some Endpoint, options: ByteStreamOptions = ByteStreamOptions()) -> LineStream {
        LineStream(bytes: bytes(endpoint, options: options), limit: configuration.maxResponseBytes)
    }

    /// The values of a line-delimited JSON body (NDJSON, JSON Lines, JSON text sequences) as they
    /// arrive, each decoded as `Value` (see ``JSONLineStream``).
    ///
    /// ```swift
    /// for try await chunk in client.jsonLines(Ollama.generate(prompt), as: GenerateChunk.self) {
    ///     print(chunk.response, terminator: "")
    /// }
    /// ```
    public func jsonLines<Value: Decodable & Sendable>(
        _ endpoint: some Endpoint, as type: Value.Type, decoding: (any ResponseDecoding)? = nil,
        options: ByteStreamOptions = ByteStreamOptions()
    ) -> JSONLineStream<Value> {
        JSONLineStream(
            bytes: bytes(endpoint, options: options), limit: configuration.maxResponseBytes,
            decoding: decoding ?? endpoint.responseDecoding, decoder: configuration.decoder)
    }
}

/// A request body that reports each chunk the transport takes to a ``TransferProgress``; each
/// iteration (a replay) starts the count again.
enum ProgressBody {
    static func wrap(_ body: HTTPBody, progress: TransferProgress) -> HTTPBody {
        var expected: Int64?
        if case .known(let length) = body.length { expected = length }
        return HTTPBody(Counting(body: body, progress: progress, expected: expected), length: body.length, iterationBehavior: body.iterationBehavior)
    }

    struct Counting: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let body: HTTPBody
        let progress: TransferProgress
        let expected: Int64?

        func makeAsyncIterator() -> Iterator {
            progress.begin(done: 0, expected: expected)
            return Iterator(inner: body.makeAsyncIterator(), progress: progress)
        }

        struct Iterator: AsyncIteratorProtocol {
            var inner: HTTPBody.Iterator
            let progress: TransferProgress

            mutating func next() async throws -> ArraySlice<UInt8>? {
                guard let chunk = try await inner.next() else { return nil }
                progress.add(chunk.count)
                return chunk
            }
        }
    }
}

public import Courier
import CourierLLM
public import CourierLLMAdapter
public import Foundation
import CourierTransfers
import HTTPTypes
public import Logging

/// The Alan LLM client of the coin app, done right: one key per task (a missing one is
/// `NetworkError.invalidAPIKey` before anything is sent), keys redacted everywhere, prompts
/// percent-encoded, a too-long URL refused before the round trip, and on a 500 the conversation
/// reset and the question asked once more (as a public client of the API does).
///
/// ```swift
/// let alan = AlanClient(clientIDs: .environment())
/// let answer = try await alan.ask("비트코인이 뭐야?")
/// for try await event in alan.stream("이더리움 전망") { … }
/// try await alan.reset()
/// ```
public struct AlanClient: Sendable {
    /// What sends the calls; its `NetworkClient.Configuration.baseURL` decides the server.
    public let network: NetworkClient
    /// The keys per task.
    public var clientIDs: AlanClientIDs
    /// The task used when a call names none.
    public var defaultTask: AlanTask
    /// The longest request URL the service accepts, in bytes (8 KiB by default); longer prompts
    /// fail with `NetworkError.uriTooLong(_:)` without a request.
    public var maxURLLength: Int
    /// Where the client says why it retried or refused (never with a key).
    public var logger: Logger

    /// 8 KiB: the usual front-end limit of the service's host.
    public static let defaultMaxURLLength = 8 * 1024

    /// A client over `network`.
    public init(
        network: NetworkClient, clientIDs: AlanClientIDs, defaultTask: AlanTask = .general,
        maxURLLength: Int = AlanClient.defaultMaxURLLength
    ) {
        self.network = network
        self.clientIDs = clientIDs
        self.defaultTask = defaultTask
        self.maxURLLength = maxURLLength
        self.logger = network.configuration.logger
    }

    /// A client for the service at `baseURL` (its root, e.g. `https://kdt-api-function.azurewebsites.net`
    /// or the sandbox's `http://127.0.0.1:8080/alan`).
    ///
    /// ```swift
    /// let alan = AlanClient(baseURL: sandbox.baseURL.appendingPathComponent("alan"), clientIDs: .single("test"))
    /// ```
    public init(
        baseURL: URL = AlanAPI.defaultBaseURL, clientIDs: AlanClientIDs, defaultTask: AlanTask = .general,
        maxURLLength: Int = AlanClient.defaultMaxURLLength, configuration: NetworkClient.Configuration = .init()
    ) {
        var configuration = configuration
        configuration.baseURL = baseURL
        self.init(
            network: NetworkClient(configuration: configuration), clientIDs: clientIDs,
            defaultTask: defaultTask, maxURLLength: maxURLLength)
    }

    /// Asks `prompt` and returns the whole answer. A 500 resets the task's conversation and asks
    /// once more.
    public func ask(_ prompt: String, task: AlanTask? = nil) async throws(NetworkError) -> AlanAnswer {
        let task = task ?? defaultTask
        let endpoint = try question(prompt, task: task)
        do {
            return try await network.request(endpoint, as: AlanAnswer.self)
        } catch .serverError(500) {
            logger.notice("Alan answered 500: resetting the conversation and asking once more", metadata: ["task": "\(task)"])
            await resetQuietly(task: task)
            return try await network.request(endpoint, as: AlanAnswer.self)
        }
    }

    /// Asks `prompt` and decodes the answer's JSON into `T` with CourierLLM (fences, prose,
    /// citations, single quotes and missing brackets repaired). An answer without JSON is
    /// `NetworkError.modelRefusal(_:)` carrying the model's own words.
    ///
    /// ```swift
    /// let weekly = try await alan.ask(CoinPrompts.weekly(for: .bitcoin), as: CoinWeekly.self, task: .coinReport)
    /// ```
    public func ask<T: Decodable & Sendable>(_ prompt: String, as type: T.Type, task: AlanTask? = nil) async throws(NetworkError) -> T {
        let answer = try await ask(prompt, task: task)
        return try LLMResponseDecoding().decode(T.self, from: Data(answer.content.utf8), using: network.configuration.decoder)
    }

    /// Streams the answer to `prompt`: progress sentences, tokens as they come, then the whole
    /// answer once (``AlanStreamEvent/complete(_:)``, which replaces the tokens). A 500 before
    /// the first event resets the conversation and opens the stream once more.
    public func stream(_ prompt: String, task: AlanTask? = nil) -> AlanStream {
        let task = task ?? defaultTask
        let network = self.network
        let logger = self.logger
        let client = self
        let opened: Result<AlanAPI, NetworkError>
        do {
            opened = .success(try checked(task: task) { clientID in .stream(prompt: prompt, clientID: clientID) })
        } catch {
            opened = .failure(error)
        }
        return AlanStream(
            endpoint: opened,
            open: { endpoint in
                network.events(
                    endpoint, as: AlanFrame.self, decoding: AlanFrame.decoding,
                    options: EventStreamOptions(idleTimeout: .seconds(120)))
            },
            resetBeforeRetry: {
                logger.notice("Alan stream answered 500: resetting the conversation and streaming once more", metadata: ["task": "\(task)"])
                await client.resetQuietly(task: task)
            }
        )
    }

    /// Streams the answer to `prompt` decoded as `T` while its tokens arrive: a
    /// `.partial(snapshot, restart:)` each time the JSON decoded so far changes (CourierLLM's
    /// `PartialJSONDecoder`: the whole-answer decoder's repairs, fed token by token), then
    /// `.complete(value)` — decoded from the service's `complete` frame as ``ask(_:as:task:)``
    /// decodes an answer, so the two agree. An answer without JSON ends in
    /// `NetworkError.modelRefusal(_:)`.
    ///
    /// ```swift
    /// for try await update in alan.stream(CoinPrompts.weekly(for: .bitcoin), as: CoinWeekly.self, task: .coinReport) {
    ///     if let draft = update.snapshot?.decode(CoinWeekly.Partial.self).value { show(draft) }
    ///     if let weekly = update.value { show(weekly) }
    /// }
    /// ```
    public func stream<T: Decodable & Sendable>(_ prompt: String, as type: T.Type, task: AlanTask? = nil) -> AlanPartialStream<T> {
        let pieces = stream(prompt, task: task).compactMap { event -> LLMTextPiece? in
            switch event {
            case .progress: nil
            case .token(let token): .delta(token)
            case .complete(let answer): .whole(answer)
            }
        }
        return LLMPartialStream(pieces, as: T.self, decoder: network.configuration.decoder, maxAnswerBytes: network.configuration.maxResponseBytes)
    }

    /// Clears the conversation of `task` (`DELETE /api/v1/reset-state`).
    public func reset(task: AlanTask? = nil) async throws(NetworkError) {
        let clientID = try clientIDs.clientID(for: task ?? defaultTask)
        _ = try await network.response(AlanAPI.resetState(clientID: clientID))
    }

    /// The length in bytes of the request URL asking `prompt` would use (prompt and key
    /// percent-encoded), built as the client builds it.
    public func requestURLLength(for prompt: String, task: AlanTask? = nil) throws(NetworkError) -> Int {
        let clientID = try clientIDs.clientID(for: task ?? defaultTask)
        return try urlLength(of: AlanAPI.question(prompt: prompt, clientID: clientID))
    }

    /// The message for a prompt whose URL would be `length` bytes, over ``maxURLLength``.
    public func uriTooLongMessage(length: Int) -> String {
        "the prompt is too long for the Alan API: it travels in the query string, and the request URL would be "
            + "\(length) bytes, over the \(maxURLLength)-byte limit — shorten the prompt by about "
            + "\(length - maxURLLength) bytes (Korean letters take 9 bytes each once percent-encoded)"
    }

    // MARK: - Machinery

    /// The question endpoint for `prompt`, after the key and URL-length checks.
    private func question(_ prompt: String, task: AlanTask) throws(NetworkError) -> AlanAPI {
        try checked(task: task) { clientID in .question(prompt: prompt, clientID: clientID) }
    }

    /// The endpoint `make` builds with the key of `task`, once the key is there and the URL
    /// fits in ``maxURLLength``.
    private func checked(task: AlanTask, _ make: (String) -> AlanAPI) throws(NetworkError) -> AlanAPI {
        let clientID: String
        do {
            clientID = try clientIDs.clientID(for: task)
        } catch {
            logger.debug("no Alan client_id for task \(task): set \(task.environmentName) or ALAN_CLIENT_ID")
            throw error
        }
        let endpoint = make(clientID)
        let length = try urlLength(of: endpoint)
        guard length <= maxURLLength else {
            logger.debug("\(uriTooLongMessage(length: length))", metadata: ["task": "\(task)"])
            throw .uriTooLong(414)
        }
        return endpoint
    }

    private func urlLength(of endpoint: AlanAPI) throws(NetworkError) -> Int {
        let base = (network.configuration.baseURL ?? endpoint.baseURL).absoluteString
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        let request = try endpoint.httpRequest(encoder: network.configuration.encoder)
        return trimmed.utf8.count + (request.path ?? "/").utf8.count
    }

    func resetQuietly(task: AlanTask) async {
        do {
            try await reset(task: task)
        } catch {
            logger.warning("Alan reset before the retry failed: \(error.log(file: "AlanClient.swift", function: "reset"))")
        }
    }
}

/// The typed partials of ``AlanClient/stream(_:as:task:)``.
public typealias AlanPartialStream<T: Decodable & Sendable> = LLMPartialStream<AsyncCompactMapSequence<AlanStream, LLMTextPiece>, T>

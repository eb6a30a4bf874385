public import Courier

/// The state of one piece of a screen that is loaded over the network (the seed's `FetchState`).
///
/// Every load ends in a visible state: ``success(_:)``, ``cancel(_:)`` (the user or the app
/// cancelled, usually shown with a "retry" button) or ``failure(_:)``. Nothing stays
/// ``loading`` forever.
///
/// ```swift
/// @Observable @MainActor final class CoinReportModel {
///     var overview: FetchState<CoinOverview> = .loading
/// }
///
/// switch model.overview {
/// case .loading: ProgressView()
/// case .success(let overview): OverviewView(overview)
/// case .cancel, .failure: RetryView(message: model.overview.error?.localizedDescription)
/// }
/// ```
public enum FetchState<Value> {
    /// The value is being fetched.
    case loading
    /// The value arrived.
    case success(Value)
    /// The fetch was cancelled; the payload is `NetworkError/taskCancelled` in practice.
    case cancel(NetworkError)
    /// The fetch failed.
    case failure(NetworkError)
}

extension FetchState: Sendable where Value: Sendable {}
extension FetchState: Equatable where Value: Equatable {}

extension FetchState {
    /// The state a thrown error ends in: cancellation in any form (`CancellationError`,
    /// `URLError.cancelled`, `NetworkError/taskCancelled`) becomes `.cancel(.taskCancelled)`,
    /// every other error `.failure(NetworkError(error))`.
    ///
    /// ```swift
    /// FetchState<Int>(error: CancellationError()) // .cancel(.taskCancelled)
    /// FetchState<Int>(error: NetworkError.notFound(404)) // .failure(.notFound(404))
    /// ```
    public init(error: any Error) {
        if error.isTaskCancellation {
            self = .cancel(.taskCancelled)
        } else {
            self = .failure(NetworkError(error))
        }
    }

    /// The state a `Result` ends in: `.success`, or the error mapped as by ``init(error:)``.
    ///
    /// ```swift
    /// let state = FetchState(result: Result { try decode(data) })
    /// ```
    public init(result: Result<Value, some Error>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = FetchState(error: error)
        }
    }

    /// Runs `operation` on the caller's actor and returns the state it ends in; errors map as
    /// by ``init(error:)``.
    ///
    /// ```swift
    /// let state = await FetchState { try await client.request(CoinAPI.overview, as: Overview.self) }
    /// ```
    public init(
        isolation: isolated (any Actor)? = #isolation,
        catching operation: () async throws -> Value
    ) async {
        do {
            self = .success(try await operation())
        } catch {
            self = FetchState(error: error)
        }
    }

    /// The value when the state is ``success(_:)``, otherwise nil.
    ///
    /// ```swift
    /// Text(model.overview.value?.description ?? "")
    /// ```
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error when the state is ``cancel(_:)`` or ``failure(_:)``, otherwise nil.
    ///
    /// ```swift
    /// if let error = state.error { Text(error.localizedDescription) }
    /// ```
    public var error: NetworkError? {
        switch self {
        case .cancel(let error), .failure(let error): return error
        case .loading, .success: return nil
        }
    }

    /// True while the value is being fetched.
    ///
    /// ```swift
    /// if state.isLoading { ProgressView() }
    /// ```
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// True once the fetch has ended, in success, cancellation or failure.
    ///
    /// ```swift
    /// let done = sections.allSatisfy(\.isFinished)
    /// ```
    public var isFinished: Bool { !isLoading }

    /// True when the state is ``cancel(_:)``.
    ///
    /// ```swift
    /// if state.isCancelled { Button("다시 시도") { model.retry(.weekly) } }
    /// ```
    public var isCancelled: Bool {
        if case .cancel = self { return true }
        return false
    }

    /// True when the state is ``failure(_:)``.
    ///
    /// ```swift
    /// if state.isFailure { Text("데이터를 불러오지 못했어요") }
    /// ```
    public var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    /// The same state with the success value transformed.
    ///
    /// ```swift
    /// let titles: FetchState<[String]> = storiesState.map { $0.map(\.title) }
    /// ```
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) -> FetchState<NewValue> {
        switch self {
        case .loading: return .loading
        case .success(let value):
            do {
                return .success(try transform(value))
            } catch {
                return FetchState<NewValue>(error: error)
            }
        case .cancel(let error): return .cancel(error)
        case .failure(let error): return .failure(error)
        }
    }
}

public import Courier

/// One finished transform of ``Swift/Sequence/mergedResults(limit:_:)``: which element it was
/// (by position and value) and how it ended.
///
/// ```swift
/// for await finished in ids.mergedResults(limit: 8, fetchStory) {
///     if case .failure(let error) = finished.result { log("story \(finished.element): \(error)") }
/// }
/// ```
public struct IndexedResult<Element: Sendable, Value: Sendable>: Sendable {
    /// The element's position in the source sequence (0-based).
    ///
    /// ```swift
    /// if finished.index == 0 { showFirst() }
    /// ```
    public let index: Int
    /// The source element.
    ///
    /// ```swift
    /// print("story \(finished.element) finished")
    /// ```
    public let element: Element
    /// The transform's value, or its error mapped to `NetworkError`.
    ///
    /// ```swift
    /// let story = try finished.result.get()
    /// ```
    public let result: Result<Value, NetworkError>

    /// A finished transform.
    ///
    /// ```swift
    /// IndexedResult(index: 0, element: 1000, result: .success(story))
    /// ```
    public init(index: Int, element: Element, result: Result<Value, NetworkError>) {
        self.index = index
        self.element = element
        self.result = result
    }

    /// The value on success, otherwise nil.
    ///
    /// ```swift
    /// let story = finished.value
    /// ```
    public var value: Value? { try? result.get() }

    /// The error on failure, otherwise nil.
    ///
    /// ```swift
    /// if let error = finished.error { failures.append(error) }
    /// ```
    public var error: NetworkError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

extension IndexedResult: Equatable where Element: Equatable, Value: Equatable {}

/// What ``Swift/Sequence/mergedValues(limit:onFailure:_:)`` does when a transform fails.
///
/// ```swift
/// let stories = ids.mergedValues(limit: 8, onFailure: .skip, fetchStory) // the seed's mergedStories
/// ```
public enum MergeFailurePolicy: Sendable, Equatable {
    /// Leave the failed element out and go on (the seed's `mergedStories`).
    case skip
    /// End the stream with the first error (as `NetworkError`) and cancel the rest.
    case failFast
}

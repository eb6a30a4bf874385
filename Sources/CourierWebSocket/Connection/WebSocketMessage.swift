#if WebSocket  // the `WebSocket` trait: Package.swift
public import Foundation

/// One whole WebSocket message (fragments already joined).
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (valid UTF-8).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes: UTF-8 for text.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// The message's size in bytes (UTF-8 for text), as receive buffers count it.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    /// The text of a text message, or a binary message's bytes read as UTF-8 (nil if they are not).
    public var text: String? {
        switch self {
        case .text(let text): text
        case .binary(let data): String(data: data, encoding: .utf8)
        }
    }
}
#endif  // WebSocket

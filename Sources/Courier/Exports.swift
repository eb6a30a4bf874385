// What `import Courier` brings along on every platform: the contracts shared with transports
// (`CallContext`, `CallTraits`, the transport capability protocols). The default transport is
// chosen inside Courier (AsyncHTTPClient on Linux, Windows and Android; URLSession on Apple
// platforms) and is not re-exported: import `CourierAsyncHTTPClient` by name to use
// `HTTPClientTransport` itself, on any platform.
@_exported import CourierTransportCore

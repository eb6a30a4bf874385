// What `import Courier` brings along: the contracts shared with transports (`CallContext`,
// `CallTraits`, the transport capability protocols), and — where it is the default transport
// (Linux, Windows, Android) — Courier's AsyncHTTPClient transport. On Apple platforms Courier
// does not link AsyncHTTPClient or SwiftNIO; add the `CourierAsyncHTTPClient` product to use it there.
@_exported import CourierTransportCore
#if COURIER_ASYNC_HTTP_CLIENT
@_exported import CourierAsyncHTTPClient
#endif

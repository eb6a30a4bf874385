// CourierWebSocket is built only with the package trait `WebSocket` (swift-websocket comes with it).
#if !WebSocket
#error(
    "CourierWebSocket needs the 'WebSocket' trait: enable the 'WebSocket' trait of the Courier package (.package(url: …, from: …, traits: [\"WebSocket\"])), or build with --traits WebSocket / --enable-all-traits"
)
#endif

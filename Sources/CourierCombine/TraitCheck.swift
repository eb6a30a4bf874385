// CourierCombine is built only with the package trait `Combine` (OpenCombine comes with it off Apple platforms).
#if !Combine
#error(
    "CourierCombine needs the 'Combine' trait: enable the 'Combine' trait of the Courier package (.package(url: …, from: …, traits: [\"Combine\"])), or build with --traits Combine / --enable-all-traits"
)
#endif

import ArgumentParser

/// The subcommands of `courier`, in `--help` order. Each lives in its own file.
enum CLISubcommands {
    static let all: [any ParsableCommand.Type] = [
        DemoCommand.self,
        RequestCommand.self,
        BenchCommand.self,
        OutboxCommand.self,
        DownloadCommand.self,
        UsersCommand.self,
        ServeCommand.self,
        JSONCommand.self,
        HackerNewsCommand.self,
        AlanCommand.self,
        CoinCommand.self,
        RaonCommand.self,
    ]
}

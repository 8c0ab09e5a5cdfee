import TPNSServerCommand

ServerCommand.main()

import TPNSCommandLine

TPNS.main()

from inwards_cli.app import main

main()

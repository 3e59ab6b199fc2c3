from accuracy_db.cli.start import main

main()

from kingdomkit.cli.main import main

raise SystemExit(main())

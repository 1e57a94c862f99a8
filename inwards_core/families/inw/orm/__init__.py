"""INW016 (`inw.orm-naming`): the kind, its docs and examples, what marks a model module
(`orm_packages`), the models a module defines (`orm_models`), how names are judged
(`orm_judgement`, `english_words`) and the findings (`orm_findings`)."""

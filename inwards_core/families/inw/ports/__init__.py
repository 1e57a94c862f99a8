"""INW014 (`inw.ports-abstract`): the kind, its examples, how it judges the port modules
(`ports_abstract_check`) and what a class is (`port_classes`)."""

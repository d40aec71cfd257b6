"""Anti-money laundering: the suspicious-transaction cases inspectors open on a player (DICJ
Instruction n.º 1/2016; Law 2/2006), with their notes and decision, chained and append-only,
and the report an escalated case prints for the financial intelligence office (GIF). It reads
the pit (players, their movements and refused movements) and is read by none of the other apps;
the pit asks it, through `keep_personal_data`, whose personal data a case still needs
(docs/aml.md)."""

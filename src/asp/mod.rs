//! The ASP Competition bridge: instances as ASP facts become PDDL problems of
//! the shipped domains, and plans become witness facts.
//! (stub: to be written)

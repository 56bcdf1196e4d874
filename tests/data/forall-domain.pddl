(define (domain switches-forall)
  (:requirements :strips :typing :universal-preconditions)
  (:types lamp)
  (:predicates (on ?l - lamp) (off ?l - lamp))
  (:action all-on
    :parameters ()
    :precondition (forall (?l - lamp) (off ?l))
    :effect (and)))

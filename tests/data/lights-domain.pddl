; Walking through rooms to switch lamps off: goals of the form (not (on ?l)).
(define (domain lights)
  (:requirements :strips :typing :negative-preconditions)
  (:types room lamp)
  (:predicates (at ?r - room) (in ?l - lamp ?r - room) (on ?l - lamp) (door ?a ?b - room))
  (:action walk
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (door ?from ?to))
    :effect (and (not (at ?from)) (at ?to)))
  (:action switch-off
    :parameters (?l - lamp ?r - room)
    :precondition (and (at ?r) (in ?l ?r) (on ?l))
    :effect (not (on ?l))))

(define (domain switches-durative)
  (:requirements :strips :typing :durative-actions)
  (:types lamp)
  (:predicates (on ?l - lamp) (off ?l - lamp))
  (:durative-action switch-on
    :parameters (?l - lamp)
    :duration (= ?duration 1)
    :condition (at start (off ?l))
    :effect (at end (on ?l))))

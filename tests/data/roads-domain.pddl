; Driving between cities on roads of different lengths.
(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types city)
  (:predicates (at ?c - city) (road ?from ?to - city))
  (:functions (total-cost) - number (road-length ?from ?to - city) - number)
  (:action drive
    :parameters (?from ?to - city)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to)
                 (increase (total-cost) (road-length ?from ?to)))))

; The briefcase world: whatever is in the briefcase moves with it
; (a universal conditional effect).
(define (domain briefcase)
  (:requirements :strips :typing :conditional-effects :universal-preconditions)
  (:types location portable)
  (:predicates (at-b ?l - location)
               (at ?o - portable ?l - location)
               (in ?o - portable))
  (:action move
    :parameters (?from ?to - location)
    :precondition (and (at-b ?from) (not (= ?from ?to)))
    :effect (and (at-b ?to) (not (at-b ?from))
                 (forall (?o - portable)
                   (when (in ?o)
                     (and (at ?o ?to) (not (at ?o ?from)))))))
  (:action put-in
    :parameters (?o - portable ?l - location)
    :precondition (and (at ?o ?l) (at-b ?l) (not (in ?o)))
    :effect (in ?o))
  (:action take-out
    :parameters (?o - portable)
    :precondition (in ?o)
    :effect (not (in ?o))))

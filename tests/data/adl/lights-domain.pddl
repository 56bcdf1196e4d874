; Lamps in rooms: a room is powered through any wired lamp in it (exists),
; a lamp goes on in a powered room or as a spare (or), and a broken lamp
; only as a spare (imply). The goal is universal.
(define (domain lights)
  (:requirements :typing :adl)
  (:types lamp room)
  (:predicates (in ?l - lamp ?r - room) (wired ?l - lamp) (powered ?r - room)
               (on ?l - lamp) (broken ?l - lamp) (spare ?l - lamp))
  (:action power
    :parameters (?r - room)
    :precondition (exists (?l - lamp) (and (in ?l ?r) (wired ?l)))
    :effect (powered ?r))
  (:action switch-on
    :parameters (?l - lamp ?r - room)
    :precondition (and (in ?l ?r)
                       (or (powered ?r) (spare ?l))
                       (imply (broken ?l) (spare ?l)))
    :effect (on ?l))
  (:action repair
    :parameters (?l - lamp)
    :precondition (broken ?l)
    :effect (not (broken ?l))))

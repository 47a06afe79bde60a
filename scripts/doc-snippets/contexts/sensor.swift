// Code that reads a sensor.
SNIPPET

func readSensor() -> Double { 0 }
